import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { UserError } from '../errors.js';
import { mask } from '../values.js';
import type { StateSnapshot } from '../state/types.js';
import type { GlobalOptions } from './session.js';

// Loaded when a state command runs, not when the CLI starts: every other command's start-up
// (`plumb --help` most of all) would otherwise load the manifest checks and resource types.
const stateStore = () => import('./state-store.js');
const session = () => import('./session.js');

/** `plumb state list | show ADDR | pull | push FILE | rm ADDR | mv FROM TO | unlock --force | claim`. */
export function stateCommand(program: Command, globals: () => GlobalOptions): void {
  const place = (cmd: Command) =>
    cmd
      .option('-f, --file <manifest>', 'manifest whose state to use (default plumb.yaml)')
      .option('--project <name>', "the project whose state to use, without its manifest (a manifest's name)")
      .option('--stack <name>', 'stack name')
      .option('--state <url>', 'state location');
  const state = place(program.command('state').description('inspect and repair state'));
  // The place flags are taken before or after the subcommand (`plumb state list -f edge.yaml`).
  let current: Command = state;
  state.hook('preAction', (_state, action) => {
    current = action;
  });
  /** The state's place: the manifest's folder and project (its name), or --project beside no manifest. */
  const where = async () => {
    const given = (opts: Record<string, unknown>) => Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
    const g = { ...globals(), ...given(state.opts()), ...given(current.opts()) } as GlobalOptions & { project?: string };
    const file = g.file ?? 'plumb.yaml';
    const { manifestProject } = await stateStore();
    if (existsSync(file)) return { opts: g, dir: (await session()).manifestDir(file), project: g.project ?? manifestProject(file), file };
    if (g.project) return { opts: g, dir: process.cwd(), project: g.project, file: undefined };
    throw new UserError(`manifest ${file} not found`, 'state is kept per manifest: give the manifest whose state to use, or its name, with -f MANIFEST or --project NAME');
  };
  /** The store, after moving state from before state was kept per manifest when it is the manifest's. */
  const storeFor = async (adopt = true) => {
    const { opts, dir, project, file } = await where();
    const { openStore, adoptLegacyState, declaredAddresses } = await stateStore();
    const store = openStore(opts, dir, project);
    if (!adopt || !file || opts.project) return store;
    try {
      const note = await adoptLegacyState(store, { file, addresses: declaredAddresses(file) ?? [] }, opts.stack, (await session()).lockInfo('state claim'));
      if (note) process.stderr.write(`${note}\n`);
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
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
  place(state.command('list'))
    .description('list the addresses in state')
    .action(async () => {
      const snapshot = await readState();
      for (const r of Object.values(snapshot.resources).sort((a, b) => a.address.localeCompare(b.address))) {
        process.stdout.write(`${r.address}\t${r.type}\t${r.id}${r.status === 'tainted' ? '\t(tainted)' : ''}\n`);
      }
    });
  place(state.command('show <address>'))
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
  place(state.command('pull'))
    .description('print the state (secrets stay encrypted)')
    .action(async () => {
      const { opts, dir } = await where();
      const snapshot = await readState();
      const { stateCodec } = await stateStore();
      const { sealSnapshot } = await import('../state/secrets.js');
      process.stdout.write(`${JSON.stringify(sealSnapshot(stateCodec(opts, dir), snapshot), null, 2)}\n`);
    });
  place(state.command('push <file>'))
    .description('replace the state with FILE (refuses another lineage or an older serial unless --force)')
    .option('--force', 'push even if the lineage differs or the serial is older')
    .action(async (file: string, flags: { force?: boolean }) => {
      const { opts, dir } = await where();
      const { stateCodec } = await stateStore();
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        throw new UserError(`${file} is not a readable plumb state: ${(err as Error).message}`);
      }
      const pushed = stateCodec(opts, dir).decode(parsed, file) as StateSnapshot;
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
  place(state.command('rm <address>'))
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
  place(state.command('mv <from> <to>'))
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
  place(state.command('unlock'))
    .description('remove a stale lock')
    .option('--force', 'remove the lock whoever holds it')
    .action(async (opts: { force?: boolean }) => {
      if (!opts.force) throw new UserError('state unlock needs --force (make sure no plumb process is running on this stack)');
      const store = await storeFor(false);
      const holder = await store.forceUnlock().finally(() => store.close());
      process.stdout.write(holder ? `removed the lock held by pid ${holder.pid} on ${holder.host} (${holder.command})\n` : 'the stack was not locked\n');
    });
  place(state.command('claim'))
    .description("move the stack's state from before state was kept per manifest to this manifest")
    .action(async () => {
      const store = await storeFor(false);
      try {
        const { opts } = await where();
        const found = await store.claimLegacy((await session()).lockInfo('state claim'));
        process.stdout.write(`moved the state of stack "${opts.stack}" from ${found.from} to ${found.to}\n`);
      } finally {
        await store.close();
      }
    });
}
