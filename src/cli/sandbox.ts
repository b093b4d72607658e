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
    .action(async (opts: { port: string; data: string; provisioningMs?: string }) => {
      const ms = opts.provisioningMs ?? process.env.PLUMB_SANDBOX_PROVISIONING_MS;
      const port = Number(opts.port);
      if (!/^\d+$/.test(opts.port) || port > 65535) throw new UserError(`--port ${opts.port}: expected a port number from 0 to 65535`);
      if (ms !== undefined && !/^\d+$/.test(ms)) throw new UserError(`provisioning time ${ms}: expected whole milliseconds, 0 or more`, 'set with --provisioning-ms or PLUMB_SANDBOX_PROVISIONING_MS');
      const { startSandbox } = await import('../sandbox/server.js');
      const running = await startSandbox({ port, dataDir: resolve(opts.data), provisioningMs: ms === undefined ? undefined : Number(ms) });
      process.stdout.write(`sandbox listening on ${running.url}\nexport PLUMB_SANDBOX_URL=${running.url}\n`);
      const stop = async () => {
        await running.close();
        process.exit(0);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
}
