import { UserError } from '../kernel/errors.js';
import type { JournalEntry, LostPart, StateSnapshot } from '../engine/contracts/state.js';

export type { AcceptedLoss, LostPart, ReadOptions, StateStore } from '../engine/contracts/state.js';

/** The state of a stack nothing was recorded for yet (it gets its lineage with its first write). */
export function emptySnapshot(stack: string): StateSnapshot {
  return { version: 1, stack, lineage: '', serial: 0, resources: {}, outputs: {}, pending: [] };
}

/** Applies journal entries to a snapshot (shared by every backend's `read`). */
export function replay(snapshot: StateSnapshot, entries: JournalEntry[]): StateSnapshot {
  const pending = new Map(snapshot.pending.map((p) => [p.token, p]));
  let outcomes = 0;
  for (const e of entries) {
    if (e.kind === 'intent') {
      const { kind: _, ...operation } = e;
      pending.set(e.token, operation);
    } else if (e.kind === 'id') {
      const p = pending.get(e.token);
      if (p) {
        p.id = e.id;
        p.secretId = e.secretId;
      }
    } else if (e.kind === 'failed') {
      pending.delete(e.token);
    } else {
      outcomes++;
      if (e.token) pending.delete(e.token);
      for (const { address, resource } of [{ address: e.address, resource: e.resource }, ...(e.also ?? [])]) {
        if (resource) snapshot.resources[address] = resource;
        else delete snapshot.resources[address];
      }
    }
  }
  // Each recorded outcome is a change of state: a saved plan made before it is stale.
  return { ...snapshot, serial: snapshot.serial + outcomes, pending: [...pending.values()] };
}

/** A state that cannot be read as it is: `where` names the file (and line) or row. */
export function damaged(where: string, what: string): UserError {
  return new UserError(`${where} is damaged: ${what}`, 'restore it from a backup or a `plumb state pull` copy (plumb state push FILE); nothing was changed');
}

/**
 * A read refused because the journal an interrupted apply opened is gone or cut back: `what`
 * says which and where, `restore` how to bring it back.
 */
export function lostJournal(what: string, restore: string): UserError {
  return new UserError(
    `${what}: the apply that opened it was interrupted, and what it ordered may be recorded nowhere`,
    `${restore} and run the command again; or, to go on without it, run \`plumb state repair --accept-lost-journal\`, then adopt what that apply ordered before applying: ` +
      "`plumb import --discover TYPE` lists the account's objects that state does not hold, and `options.import` in the manifest or `plumb import` adopts them. Nothing was changed",
  );
}

/** `acceptLoss` asked to accept a loss that is not there. */
export function nothingLost(what: LostPart, where: string): UserError {
  return new UserError(`no lost ${what === 'journal' ? 'journal' : 'state'} to accept: ${where} reads as it is`, 'nothing was changed');
}

/**
 * Checks the shape of a snapshot before anything is planned from it: a damaged state read as
 * "nothing recorded" would order everything again. `where` names the file or row.
 */
export function checkSnapshot(snapshot: unknown, where: string): StateSnapshot {
  const s = snapshot as Record<string, unknown> | null;
  const fail = (what: string): never => {
    throw damaged(where, what);
  };
  if (!s || typeof s !== 'object' || Array.isArray(s)) fail('it is not a JSON object');
  if (s!.version !== 1) fail(`"version" is ${JSON.stringify(s!.version)}, and this plumb reads version 1`);
  if (typeof s!.lineage !== 'string') fail('"lineage" must be a string');
  if (s!.project !== undefined && typeof s!.project !== 'string') fail('"project" must be a string');
  if (!Number.isInteger(s!.serial) || (s!.serial as number) < 0) fail('"serial" must be a whole number');
  if (!isRecord(s!.resources)) fail('"resources" must be an object of addresses');
  const resources = s!.resources as Record<string, unknown>;
  for (const address in resources) {
    const r = resources[address];
    if (!isRecord(r) || typeof r.type !== 'string' || typeof r.id !== 'string') fail(`resource "${address}" must be an object with a type and an id`);
  }
  if (s!.outputs !== undefined && !isRecord(s!.outputs)) fail('"outputs" must be an object');
  if (s!.pending !== undefined && !Array.isArray(s!.pending)) fail('"pending" must be a list');
  return s as unknown as StateSnapshot;
}

/** Checks one journal entry's shape; `where` names the file and line (or row). */
export function checkEntry(entry: unknown, where: string): JournalEntry {
  const e = entry as Record<string, unknown> | null;
  const kinds = ['intent', 'id', 'outcome', 'failed'];
  if (!isRecord(e) || !kinds.includes(e.kind as string) || typeof e.address !== 'string') {
    throw damaged(where, `not a journal entry (${kinds.join(', ')})`);
  }
  return e as unknown as JournalEntry;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
