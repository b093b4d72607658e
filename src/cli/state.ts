import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { UserError } from '../errors.js';
import { mask } from '../values.js';
import { manifestDir, openStore, type GlobalOptions } from './session.js';

/** `plumb state list | show ADDR | unlock --force`. */
export function stateCommand(program: Command, globals: () => GlobalOptions): void {
  const state = program.command('state').description('inspect and repair state');
  const storeFor = () => {
    const g = globals();
    const file = g.file ?? 'plumb.yaml';
    return openStore(g, existsSync(file) ? manifestDir(file) : process.cwd());
  };
  state
    .command('list')
    .description('list the addresses in state')
    .action(async () => {
      const snapshot = await storeFor().read();
      for (const r of Object.values(snapshot.resources).sort((a, b) => a.address.localeCompare(b.address))) {
        process.stdout.write(`${r.address}\t${r.type}\t${r.id}${r.status === 'tainted' ? '\t(tainted)' : ''}\n`);
      }
    });
  state
    .command('show <address>')
    .description('show one resource as recorded')
    .option('--json', 'print JSON')
    .action(async (address: string, opts: { json?: boolean }) => {
      const snapshot = await storeFor().read();
      const r = snapshot.resources[address];
      if (!r) throw new UserError(`no resource "${address}" in state`, `addresses: ${Object.keys(snapshot.resources).join(', ') || '(none)'}`);
      const shown = mask(r) as Record<string, unknown>;
      if (opts.json) process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
      else {
        process.stdout.write(`# ${r.address} (${r.type})\nid: ${r.id}\nstatus: ${r.status}\n`);
        for (const [k, v] of Object.entries((shown.outputs ?? {}) as Record<string, unknown>)) if (v !== undefined) process.stdout.write(`${k}: ${JSON.stringify(v)}\n`);
      }
    });
  state
    .command('unlock')
    .description('remove a stale lock')
    .option('--force', 'remove the lock whoever holds it')
    .action(async (opts: { force?: boolean }) => {
      if (!opts.force) throw new UserError('state unlock needs --force (make sure no plumb process is running on this stack)');
      const holder = await storeFor().forceUnlock();
      process.stdout.write(holder ? `removed the lock held by pid ${holder.pid} on ${holder.host} (${holder.command})\n` : 'the stack was not locked\n');
    });
}
