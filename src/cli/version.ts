import { readFileSync } from 'node:fs';

/** plumb's npm package name and version, from its package.json (two folders up from the bundle and from the compiled modules alike). */
export function packageInfo(): { name: string; version: string } {
  try {
    const { name, version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    return { name, version };
  } catch {
    return { name: 'unknown', version: 'unknown' };
  }
}

/** plumb's version, from its package.json. */
export function packageVersion(): string {
  return packageInfo().version;
}

/** `plumb version`: plumb's version and npm package, node's version, and the platform. */
export async function versionCommand(opts: { json?: boolean }): Promise<number> {
  const { name, version } = packageInfo();
  const info = { version, package: name, node: process.version, platform: `${process.platform}-${process.arch}` };
  process.stdout.write(opts.json ? `${JSON.stringify(info, null, 2)}\n` : `plumb ${version} (npm package ${name}, node ${info.node}, ${info.platform})\n`);
  return 0;
}
