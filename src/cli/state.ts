import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { UserError } from '../kernel/errors.js';
import type { StateSnapshot } from '../engine/contracts/state.js';
import { mask } from '../kernel/values.js';
import { lockInfo, placeFlags, StateAccess } from './state-access.js';

/** `plumb state list | show ADDR | pull | push FILE | rm ADDR [--keep-marks] | mv FROM TO | unlock --force | claim | repair`. */
export function stateCommand(program: Command): void {
  const state = placeFlags(program.command('state').description('inspect and repair state'));
  const access = new StateAccess(state);
  const sub = (spec: string) => placeFlags(state.command(spec));
  sub('list')
    .description('list the addresses in state')
    .action(async () => list(await access.read()));
  sub('show <address>')
    .description('show one resource as recorded')
    .option('--json', 'print JSON')
    .action(async (address: string, opts: { json?: boolean }) => show(await access.read(), address, Boolean(opts.json)));
  sub('pull')
    .description('print the state (secrets stay encrypted)')
    .action(async () => pull(access));
  sub('push <file>')
    .description('replace the state with FILE (refuses another lineage or an older serial unless --force)')
    .option('--force', 'push even if the lineage differs or the serial is older')
    .action(async (file: string, flags: { force?: boolean }) => push(access, file, Boolean(flags.force)));
  sub('rm <address>')
    .description("forget a resource and its interrupted operations without deleting it (it stays billed); plumb's ownership marks on it are removed")
    .option('--keep-marks', "forget it without removing plumb's ownership marks (another stack then adopts it only with plumb import --force)")
    .action(async (address: string, opts: { keepMarks?: boolean }) => (await import('./state-rm.js')).removeFromState(access, address, Boolean(opts.keepMarks)));
  sub('mv <from> <to>')
    .description('rename a resource address in state')
    .action(async (from: string, to: string) => {
      await access.change('mv', (snapshot) => moveAddress(snapshot, from, to));
      process.stdout.write(`moved ${from} to ${to}\n`);
    });
  sub('unlock')
    .description('remove a stale lock')
    .option('--force', 'remove the lock whoever holds it')
    .action(async (opts: { force?: boolean }) => unlock(access, Boolean(opts.force)));
  sub('repair')
    .description('go on, deliberately, after a loss that stops every command reading state')
    .option('--accept-lost-journal', 'the journal of an interrupted apply is lost: keep what state.json holds (what that apply ordered must be adopted)')
    .option('--accept-lost-state', 'state.json is lost: forget what its backup records (the objects stay billed)')
    .action(async (opts: { acceptLostJournal?: boolean; acceptLostState?: boolean }) => repair(access, opts));
}

/** `state list`: one line per address, its type and id, tainted ones marked. */
function list(snapshot: StateSnapshot): void {
  for (const r of Object.values(snapshot.resources).sort((a, b) => a.address.localeCompare(b.address))) {
    process.stdout.write(`${r.address}\t${r.type}\t${r.id}${r.status === 'ok' ? '' : `\t(${r.status})`}\n`);
  }
}

/** `state show ADDR`: the resource as recorded, secrets masked. */
function show(snapshot: StateSnapshot, address: string, json: boolean): void {
  const r = snapshot.resources[address];
  if (!r) throw new UserError(`no resource "${address}" in state`, `addresses: ${Object.keys(snapshot.resources).join(', ') || '(none)'}`);
  const shown = mask(r) as Record<string, unknown>;
  if (json) {
    process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    return;
  }
  process.stdout.write(`# ${r.address} (${r.type})\nid: ${r.id}\nstatus: ${r.status}\n`);
  for (const [k, v] of Object.entries((shown.outputs ?? {}) as Record<string, unknown>)) if (v !== undefined) process.stdout.write(`${k}: ${JSON.stringify(v)}\n`);
}

/** `state pull`: the state as JSON, its secrets sealed as they are at rest. */
async function pull(access: StateAccess): Promise<void> {
  const { opts, dir } = await access.where();
  const snapshot = await access.read();
  const { stateCodec } = await import('./state-store.js');
  const { sealSnapshot } = await import('../state/secrets.js');
  process.stdout.write(`${JSON.stringify(sealSnapshot(stateCodec(opts, dir), snapshot), null, 2)}\n`);
}

/** `state push FILE`: replaces the state with the file's, unless that would lose history (without --force). */
async function push(access: StateAccess, file: string, force: boolean): Promise<void> {
  const { opts, dir } = await access.where();
  const { stateCodec } = await import('./state-store.js');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UserError(`${file} is not a readable plumb state: ${(err as Error).message}`);
  }
  const pushed = stateCodec(opts, dir).decode(parsed, file) as StateSnapshot;
  if (pushed?.version !== 1 || typeof pushed.resources !== 'object') throw new UserError(`${file} is not a plumb state (version 1)`);
  // A missing state.json is what a push of its backup restores: read as that backup.
  await access.change('push', (current) => acceptPushed(current, pushed, file, force), 'refuse', { replacing: true });
  process.stdout.write(`state replaced from ${file}\n`);
}

/** The state after a push: refused for another lineage or an older serial unless forced; the serial never goes back. */
function acceptPushed(current: StateSnapshot, pushed: StateSnapshot, file: string, force: boolean): StateSnapshot {
  if (!force && current.lineage && pushed.lineage !== current.lineage) {
    throw new UserError(`${file} has lineage ${pushed.lineage}, but the state has ${current.lineage}: it is another stack's history`, 'pass --force to replace it anyway');
  }
  if (!force && pushed.serial < current.serial) {
    throw new UserError(`${file} has serial ${pushed.serial}, older than the state's ${current.serial}: pushing it would lose changes`, 'pull the current state, or pass --force');
  }
  return { ...pushed, stack: current.stack, lineage: pushed.lineage || current.lineage, serial: Math.max(current.serial, pushed.serial), pending: [] };
}

/** The state with one address renamed, and every dependency on it with it. */
function moveAddress(snapshot: StateSnapshot, from: string, to: string): StateSnapshot {
  if (!snapshot.resources[from]) throw new UserError(`no resource "${from}" in state`);
  if (snapshot.resources[to]) throw new UserError(`"${to}" is already in state`);
  if (!to.trim() || to.includes('~')) throw new UserError(`"${to}" is not an address`, 'an address is the resource name the manifest uses; "~" is kept for objects set aside during a replacement');
  const resources: StateSnapshot['resources'] = {};
  for (const [k, v] of Object.entries(snapshot.resources)) {
    const moved = { ...v, dependencies: v.dependencies.map((d) => (d === from ? to : d)) };
    resources[k === from ? to : k] = k === from ? { ...moved, address: to } : moved;
  }
  return { ...snapshot, resources };
}

/** `state unlock --force`: removes the lock whoever holds it, saying whose it was. */
async function unlock(access: StateAccess, force: boolean): Promise<void> {
  if (!force) throw new UserError('state unlock needs --force (make sure no plumb process is running on this stack)');
  const store = await access.open();
  const holder = await store.forceUnlock().finally(() => store.close());
  process.stdout.write(holder ? `removed the lock held by pid ${holder.pid} on ${holder.host} (${holder.command})\n` : 'the stack was not locked\n');
}

/** `state repair --accept-lost-journal | --accept-lost-state`: accepts the loss a read refused, under the lock, and says what is left to do. */
async function repair(access: StateAccess, opts: { acceptLostJournal?: boolean; acceptLostState?: boolean }): Promise<void> {
  if (Boolean(opts.acceptLostJournal) === Boolean(opts.acceptLostState)) {
    throw new UserError('state repair needs one of --accept-lost-journal and --accept-lost-state', 'run the command that stopped again: its message says which loss it found');
  }
  const store = await access.open();
  try {
    await store.lock(await lockInfo('state repair'));
    const accepted = await store.acceptLoss(opts.acceptLostJournal ? 'journal' : 'snapshot');
    process.stdout.write(`Accepted the loss: ${accepted.lost}.\n`);
    if (accepted.forgotten.length) {
      process.stdout.write(`State no longer records these; they still exist remotely and stay billed:\n`);
      for (const r of accepted.forgotten) process.stdout.write(`  ${r.address}\t${r.type}\t${r.id}\n`);
      process.stdout.write('Adopt them with `options.import` in the manifest or `plumb import` before applying, or a plan orders them again.\n');
    } else if (opts.acceptLostJournal) {
      process.stdout.write(
        "Before applying, adopt what the interrupted apply ordered: `plumb import --discover TYPE` lists the account's objects that state does not hold, and `options.import` in the manifest or `plumb import` adopts them; a plan orders again whatever the manifest declares and state does not hold.\n",
      );
    }
  } finally {
    await store.close();
  }
}
