import { readFileSync } from 'node:fs';

/** plumb's version, from its package.json (two folders up from the bundle and from the compiled modules alike). */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** `plumb version`: plumb's version, node's, and the platform. */
export async function versionCommand(opts: { json?: boolean }): Promise<number> {
  const info = { version: packageVersion(), node: process.version, platform: `${process.platform}-${process.arch}` };
  process.stdout.write(opts.json ? `${JSON.stringify(info, null, 2)}\n` : `plumb ${info.version} (node ${info.node}, ${info.platform})\n`);
  return 0;
}
