import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { UserError } from '../errors.js';
import { mask } from '../values.js';
import type { StateSnapshot } from '../state/types.js';
import type { GlobalOptions } from './session.js';

// Loaded when a state command runs, not when the CLI starts: every other command's start-up
// (`plumb --help` most of all) would otherwise load the manifest checks and resource types.
const session = () => import('./session.js');

/** `plumb state list | show ADDR | pull | push FILE | rm ADDR | mv FROM TO | unlock --force`. */
export function stateCommand(program: Command, globals: () => GlobalOptions): void {
  const state = program.command('state').description('inspect and repair state').option('-f, --file <manifest>', 'manifest whose state to use').option('--stack <name>', 'stack name').option('--state <url>', 'state location');
  const where = async () => {
    const own = Object.fromEntries(Object.entries(state.opts()).filter(([, v]) => v !== undefined));
    const g = { ...globals(), ...own } as GlobalOptions;
    const file = g.file ?? 'plumb.yaml';
    return { opts: g, dir: existsSync(file) ? (await session()).manifestDir(file) : process.cwd() };
  };
  const storeFor = async () => {
    const { opts, dir } = await where();
    return (await session()).openStore(opts, dir);
  };
  const readState = async () => {
    const store = await storeFor();
    try {
      return await store.read();
    } finally {
      await store.close();
    }
  };
  /** Runs a change of state under the lock and writes it as a new serial. */
  const change = async (command: string, edit: (snapshot: StateSnapshot) => StateSnapshot | Promise<StateSnapshot>) => {
    const store = await storeFor();
    try {
      await store.lock((await session()).lockInfo(`state ${command}`));
      const snapshot = await store.read();
      if (snapshot.pending.length) throw new UserError('the state has interrupted operations; run plumb plan or apply first so they are settled');
      await store.write(await edit(snapshot));
    } finally {
      await store.close();
    }
  };
  state
    .command('list')
    .description('list the addresses in state')
    .action(async () => {
      const snapshot = await readState();
      for (const r of Object.values(snapshot.resources).sort((a, b) => a.address.localeCompare(b.address))) {
        process.stdout.write(`${r.address}\t${r.type}\t${r.id}${r.status === 'tainted' ? '\t(tainted)' : ''}\n`);
      }
    });
  state
    .command('show <address>')
    .description('show one resource as recorded')
    .option('--json', 'print JSON')
    .action(async (address: string, opts: { json?: boolean }) => {
      const snapshot = await readState();
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
    .command('pull')
    .description('print the state (secrets stay encrypted)')
    .action(async () => {
      const { opts, dir } = await where();
      const snapshot = await readState();
      process.stdout.write(`${JSON.stringify((await session()).stateCodec(opts, dir).encode(snapshot), null, 2)}\n`);
    });
  state
    .command('push <file>')
    .description('replace the state with FILE (refuses another lineage or an older serial unless --force)')
    .option('--force', 'push even if the lineage differs or the serial is older')
    .action(async (file: string, flags: { force?: boolean }) => {
      const { opts, dir } = await where();
      const { stateCodec } = await session();
      let pushed: StateSnapshot;
      try {
        pushed = stateCodec(opts, dir).decode(JSON.parse(readFileSync(file, 'utf8'))) as StateSnapshot;
      } catch (err) {
        throw new UserError(`${file} is not a readable plumb state: ${(err as Error).message}`);
      }
      if (pushed?.version !== 1 || typeof pushed.resources !== 'object') throw new UserError(`${file} is not a plumb state (version 1)`);
      await change('push', (current) => {
        if (!flags.force && current.lineage && pushed.lineage !== current.lineage) {
          throw new UserError(`${file} has lineage ${pushed.lineage}, but the state has ${current.lineage}: it is another stack's history`, 'pass --force to replace it anyway');
        }
        if (!flags.force && pushed.serial < current.serial) {
          throw new UserError(`${file} has serial ${pushed.serial}, older than the state's ${current.serial}: pushing it would lose changes`, 'pull the current state, or pass --force');
        }
        return { ...pushed, stack: current.stack, lineage: pushed.lineage || current.lineage, serial: Math.max(current.serial, pushed.serial), pending: [] };
      });
      process.stdout.write(`state replaced from ${file}\n`);
    });
  state
    .command('rm <address>')
    .description('forget a resource without deleting it (it stays billed)')
    .action(async (address: string) => {
      let id = '';
      await change('rm', (snapshot) => {
        const r = snapshot.resources[address];
        if (!r) throw new UserError(`no resource "${address}" in state`, `addresses: ${Object.keys(snapshot.resources).join(', ') || '(none)'}`);
        id = r.id;
        const resources = { ...snapshot.resources };
        delete resources[address];
        return { ...snapshot, resources };
      });
      process.stdout.write(`removed ${address} from state; ${id} still exists remotely and is not managed by plumb any more\n`);
    });
  state
    .command('mv <from> <to>')
    .description('rename a resource address in state')
    .action(async (from: string, to: string) => {
      await change('mv', (snapshot) => {
        const r = snapshot.resources[from];
        if (!r) throw new UserError(`no resource "${from}" in state`);
        if (snapshot.resources[to]) throw new UserError(`"${to}" is already in state`);
        if (!to.trim() || to.includes('~')) throw new UserError(`"${to}" is not an address`, 'an address is the resource name the manifest uses; "~" is kept for objects set aside during a replacement');
        const resources: StateSnapshot['resources'] = {};
        for (const [k, v] of Object.entries(snapshot.resources)) {
          const moved = { ...v, dependencies: v.dependencies.map((d) => (d === from ? to : d)) };
          resources[k === from ? to : k] = k === from ? { ...moved, address: to } : moved;
        }
        return { ...snapshot, resources };
      });
      process.stdout.write(`moved ${from} to ${to}\n`);
    });
  state
    .command('unlock')
    .description('remove a stale lock')
    .option('--force', 'remove the lock whoever holds it')
    .action(async (opts: { force?: boolean }) => {
      if (!opts.force) throw new UserError('state unlock needs --force (make sure no plumb process is running on this stack)');
      const store = await storeFor();
      const holder = await store.forceUnlock().finally(() => store.close());
      process.stdout.write(holder ? `removed the lock held by pid ${holder.pid} on ${holder.host} (${holder.command})\n` : 'the stack was not locked\n');
    });
}
