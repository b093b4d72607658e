/**
 * Renames without replacement (`options.aliases`): a resource whose record is under an old
 * address takes that record over. The plan classifies it against the moved record and says
 * "moved from"; apply moves the record in one journal entry before any step, with no remote call.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { Alias, Manifest } from '../manifest/ast.js';
import type { ResourceState } from './contracts/state.js';
import { isDeposed } from './deposed.js';
import type { Journal } from './journal.js';
import type { Change, EngineDeps } from './types.js';

/** Recorded state with every aliased record moved to its new address, and what moved. */
export interface Moved {
  resources: Record<string, ResourceState>;
  /** New address → the old address its record was under. */
  from: Map<string, string>;
  diagnostics: Diagnostic[];
}

/**
 * Matches each resource's aliases against the records. An alias that names a resource the
 * manifest declares, a resource recorded under both its address and an alias (or under two
 * aliases), a record two resources claim, or a record of another type is an error naming both.
 */
export function moveAliased(manifest: Manifest, recorded: Record<string, ResourceState>, deps: Pick<EngineDeps, 'resourceType'>): Moved {
  const diagnostics: Diagnostic[] = [];
  const from = new Map<string, string>();
  const claimedBy = new Map<string, string>();
  const error = (address: string, alias: Alias, summary: string, detail: string) => diagnostics.push({ severity: 'error', summary, detail, address, pos: { file: manifest.file, ...alias.pos } });
  for (const [address, decl] of Object.entries(manifest.resources)) {
    const aliases = (decl.options.aliases ?? []).filter((a) => a.name !== address);
    for (const alias of aliases) {
      if (manifest.resources[alias.name])
        error(
          address,
          alias,
          `alias "${alias.name}" of ${address} names a resource the manifest declares: ${alias.name}`,
          `an alias is an address ${address} was recorded under before; rename or remove one of ${address} and ${alias.name}`,
        );
    }
    const found = aliases.filter((a) => !manifest.resources[a.name] && recorded[a.name] && !isDeposed(a.name));
    if (!found.length) continue;
    const [alias] = found;
    if (recorded[address] || found.length > 1) {
      const both = recorded[address] ? [address, alias.name] : found.map((a) => a.name);
      error(address, alias, `${address} matches two records: ${both.join(' and ')}`, `each is an object of its own; remove the alias of the one to keep apart, or plumb state rm one of them`);
      continue;
    }
    const old = recorded[alias.name];
    const aliasType = alias.type && (deps.resourceType(alias.type)?.token ?? alias.type);
    if (old.type !== decl.token || (aliasType && aliasType !== old.type)) {
      error(
        address,
        alias,
        `alias "${alias.name}" of ${address} names a ${old.type}, not a ${aliasType ?? decl.token}`,
        'an alias moves a record of the same type; a resource of another type is a new object',
      );
      continue;
    }
    const other = claimedBy.get(alias.name);
    if (other) {
      error(address, alias, `${alias.name} is an alias of both ${other} and ${address}`, 'one record can move to one address only');
      continue;
    }
    claimedBy.set(alias.name, address);
    from.set(address, alias.name);
  }
  return { resources: diagnostics.length || !from.size ? recorded : moveRecords(recorded, from), from, diagnostics };
}

/** The records with each moved one under its new address, and dependencies on it renamed too. */
function moveRecords(recorded: Record<string, ResourceState>, from: Map<string, string>): Record<string, ResourceState> {
  const to = new Map([...from].map(([address, old]) => [old, address]));
  const moved: Record<string, ResourceState> = {};
  for (const [key, record] of Object.entries(recorded)) {
    const address = to.get(key) ?? key;
    const dependencies = record.dependencies.map((d) => to.get(d) ?? d);
    moved[address] = { ...record, address, dependencies };
  }
  return moved;
}

/** Marks the planned changes of moved resources with the address their record moves from. */
export function markMoves(changes: Change[], from: Map<string, string>): void {
  for (const change of changes) {
    const old = from.get(change.address);
    if (old !== undefined && change.action !== 'delete') change.movedFrom = old;
  }
}

/** Records every planned move, each in one journal entry (new address set, old one cleared), before any step runs. */
export async function recordMoves(changes: Change[], journal: Journal): Promise<void> {
  for (const change of changes) {
    const record = change.movedFrom !== undefined ? journal.current[change.address] : undefined;
    if (record) await journal.record({ [change.address]: record, [change.movedFrom!]: null });
  }
}
