import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../kernel/errors.js';
import { keepGitOutOfWorld } from '../state/git-ignore.js';

/** What `plumb sandbox start` accepts. */
interface StartOptions {
  port: string;
  data: string;
  provisioningMs?: string;
  tlsCert?: string;
  tlsKey?: string;
  endOfTermCancel?: string;
  limits?: string;
}

/** `plumb sandbox start`: serves the simulated remote APIs until stopped. */
export function sandboxCommand(program: Command): void {
  const sandbox = program.command('sandbox').description('the simulated remote APIs');
  sandbox
    .command('start')
    .description("serve every provider's simulated API on a loopback port")
    .option('--port <n>', 'port (0 = any free port)', '4567')
    .option('--data <dir>', 'folder for the simulated world', '.plumb/sandbox')
    .option('--provisioning-ms <ms>', 'how long products take to provision (env PLUMB_SANDBOX_PROVISIONING_MS)')
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM); needs --tls-key')
    .option('--tls-key <file>', 'the private key (PEM) of --tls-cert')
    .option(
      '--limits <mode>',
      "real (enforce the APIs' documented rate limits) or off (the default: only the limits every account meets in ordinary use, such as the pipeline's 20 connection creations a minute) (env PLUMB_SANDBOX_LIMITS)",
    )
    .option(
      '--end-of-term-cancel <mode>',
      "refuse (today's interconnect API) or accept (the API before 2026-05) cancelling Ports and LAG Ports at the end of their term (env PLUMB_SANDBOX_END_OF_TERM_CANCEL)",
    )
    .action(async (opts: StartOptions) => {
      const port = Number(opts.port);
      if (!/^\d+$/.test(opts.port) || port > 65535) throw new UserError(`--port ${opts.port}: expected a port number from 0 to 65535`);
      const tls = tlsFiles(opts);
      const { startSandbox } = await import('@plumb/sandbox');
      const settings = await sandboxSettings(process.env, opts);
      keepGitOutOfWorld(resolve(opts.data));
      const running = await startSandbox({ port, dataDir: resolve(opts.data), ...settings, tls }).catch((err: Error) => {
        // node refuses a key that does not belong to the certificate, or a damaged PEM file.
        throw tls && /^ERR_OSSL/.test(String((err as NodeJS.ErrnoException).code)) ? new UserError(`--tls-cert ${opts.tlsCert} with --tls-key ${opts.tlsKey}: ${err.message}`) : err;
      });
      const trust = tls ? '# clients trust its certificate when NODE_EXTRA_CA_CERTS names the file of the authority that signed it\n' : '';
      // plumb's commands keep to the real APIs' default rates only when told the sandbox enforces their limits.
      const limits = settings.limits === 'real' ? "# enforcing the APIs' documented rate limits\nexport PLUMB_SANDBOX_LIMITS=real\n" : '';
      process.stdout.write(`sandbox listening on ${running.url}\nexport PLUMB_SANDBOX_URL=${running.url}\n${trust}${limits}`);
      const stop = async () => {
        await running.close();
        process.exit(0);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  sandbox
    .command('settings')
    .description('show the settings a sandbox world keeps, or keep new ones (a setting given by environment variable lasts for one command)')
    .option('--data <dir>', "the world's data folder (default: .plumb/sandbox beside the manifest); PLUMB_SANDBOX_URL names a running sandbox instead")
    .option('--provisioning-ms <ms>', 'how long products take to provision, kept')
    .option('--end-of-term-cancel <mode>', 'refuse or accept cancelling Ports and LAG Ports at the end of their term, kept')
    .option('--json', 'print JSON')
    .action(async (_opts: unknown, cmd: Command) => {
      const { optionsOf } = await import('./flags.js');
      process.exitCode = await settingsCommand(optionsOf(cmd));
    });
}

/**
 * The sandbox settings of the environment and the flags (`PLUMB_SANDBOX_PROVISIONING_MS` or
 * `--provisioning-ms`...), flags first. A value that is not valid is the user's to fix: a
 * UserError naming where it came from and what is valid.
 */
export async function sandboxSettings(env: Record<string, string | undefined>, flags: { provisioningMs?: string; endOfTermCancel?: string; limits?: string } = {}) {
  const { settingsFrom, SandboxSettingError } = await import('@plumb/sandbox/settings');
  try {
    return settingsFrom(env, flags);
  } catch (err) {
    throw err instanceof SandboxSettingError ? new UserError(err.message) : err;
  }
}

/**
 * `plumb sandbox settings [--provisioning-ms MS] [--end-of-term-cancel MODE]`: shows the settings
 * a sandbox world keeps, or changes them for good. A setting given by environment variable lasts
 * for one command; this is how one is kept. The world is the running sandbox PLUMB_SANDBOX_URL
 * names, else the data folder (`--data`, default the manifest's `.plumb/sandbox`).
 */
async function settingsCommand(opts: { data?: string; provisioningMs?: string; endOfTermCancel?: string; file?: string; json?: boolean }): Promise<number> {
  // Only the flags are kept: the environment's settings are for the command they are given to.
  const patch = await sandboxSettings({}, opts);
  const changing = Object.keys(patch).length > 0;
  let now: Record<string, unknown>;
  if (process.env.PLUMB_SANDBOX_URL) {
    const url = `${process.env.PLUMB_SANDBOX_URL.replace(/\/$/, '')}/_sandbox/settings`;
    const res = await fetch(url, changing ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(patch) } : {});
    now = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new UserError(`the sandbox at ${process.env.PLUMB_SANDBOX_URL} refused the settings: ${String(now.message)}`);
  } else {
    const { FileWorld } = await import('@plumb/sandbox/world');
    const folder = dataFolder(opts);
    keepGitOutOfWorld(folder);
    const world = new FileWorld(folder);
    if (changing) world.updateSettings(patch);
    world.flush();
    now = { ...world.settings() };
  }
  if (opts.json) process.stdout.write(`${JSON.stringify(now, null, 2)}\n`);
  else process.stdout.write(`${changing ? 'kept: ' : ''}provisioningMs ${String(now.provisioningMs)}, end-of-term cancel ${now.refuseEndOfTermCancel ? 'refused' : 'accepted'}\n`);
  return 0;
}

/** The data folder of the sandbox a manifest's commands start: `--data`, or `.plumb/sandbox` beside the manifest (or here). */
function dataFolder(opts: { data?: string; file?: string }): string {
  if (opts.data) return resolve(opts.data);
  if (opts.file && !existsSync(opts.file)) throw new UserError(`manifest ${opts.file} not found`);
  // The folder of plumb.yaml or of a Pulumi project (Pulumi.yaml, with Main.yaml beside it).
  const found = opts.file ?? ['plumb.yaml', 'Pulumi.yaml'].find((name) => existsSync(name));
  return join(found ? dirname(resolve(found)) : process.cwd(), '.plumb', 'sandbox');
}

/** The certificate and key of --tls-cert and --tls-key, both or neither; undefined for plain HTTP. */
function tlsFiles(opts: StartOptions): { cert: string; key: string } | undefined {
  if (!opts.tlsCert && !opts.tlsKey) return undefined;
  if (!opts.tlsCert || !opts.tlsKey)
    throw new UserError(`${opts.tlsCert ? '--tls-cert' : '--tls-key'} needs ${opts.tlsCert ? '--tls-key' : '--tls-cert'} too`, 'give both the certificate and its private key, as PEM files');
  const read = (flag: string, file: string, what: string) => {
    let text: string;
    try {
      text = readFileSync(resolve(file), 'utf8');
    } catch (err) {
      throw new UserError(`${flag} ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (!text.includes(`-----BEGIN ${what}`) && !(what === 'PRIVATE KEY' && /-----BEGIN [A-Z ]*PRIVATE KEY/.test(text))) {
      throw new UserError(`${flag} ${file}: not a PEM ${what.toLowerCase()} (no "-----BEGIN ${what}" line)`);
    }
    return text;
  };
  return { cert: read('--tls-cert', opts.tlsCert, 'CERTIFICATE'), key: read('--tls-key', opts.tlsKey, 'PRIVATE KEY') };
}
