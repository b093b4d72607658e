import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../errors.js';

/** `plumb sandbox start`: serves the simulated remote APIs until stopped. */
export function sandboxCommand(program: Command): void {
  const sandbox = program.command('sandbox').description('the simulated remote APIs');
  sandbox
    .command('start')
    .description('serve every provider\'s simulated API on a loopback port')
    .option('--port <n>', 'port (0 = any free port)', '4567')
    .option('--data <dir>', 'folder for the simulated world', '.plumb/sandbox')
    .option('--provisioning-ms <ms>', 'how long products take to provision (env PLUMB_SANDBOX_PROVISIONING_MS)')
    .option('--end-of-term-cancel <mode>', "refuse (today's interconnect API) or accept (the API before 2026-05) cancelling Ports and LAG Ports at the end of their term (env PLUMB_SANDBOX_END_OF_TERM_CANCEL)")
    .action(async (opts: { port: string; data: string; provisioningMs?: string; endOfTermCancel?: string }) => {
      const port = Number(opts.port);
      if (!/^\d+$/.test(opts.port) || port > 65535) throw new UserError(`--port ${opts.port}: expected a port number from 0 to 65535`);
      const { startSandbox } = await import('../sandbox/server.js');
      const { settingsFrom } = await import('../sandbox/settings.js');
      const running = await startSandbox({ port, dataDir: resolve(opts.data), ...settingsFrom(process.env, opts) });
      process.stdout.write(`sandbox listening on ${running.url}\nexport PLUMB_SANDBOX_URL=${running.url}\n`);
      const stop = async () => {
        await running.close();
        process.exit(0);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
}
