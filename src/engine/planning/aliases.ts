/**
 * Renames without replacement (`options.aliases`): a resource whose record is under an old
 * address takes that record over, with the objects set aside there. The plan classifies it against
 * the moved record and says "moved from"; apply moves the records in one journal entry before any
 * step, with no remote call.
 */
import type { Diagnostic } from '../../kernel/diagnostics.js';
import { ALIAS_FORMS, aliasNotText, fromText } from '../../manifest/alias-option.js';
import { refsOf, type Alias, type Manifest } from '../../manifest/ast.js';
import { Unknown, containsUnknown, reveal } from '../../kernel/values.js';
import type { PendingOperation, ResourceState } from '../contracts/state.js';
import { baseAddress, deposedKey, isDeposed } from '../applying/deposed.js';
import { EvalError, evaluate, type Scope } from '../evaluation/evaluate.js';
import type { ManifestGraph } from '../graph/graph.js';
import type { Journal, Records } from '../applying/journal.js';
import { Evaluation } from '../evaluation/scope.js';
import type { Change, EngineDeps } from '../types.js';

/** Recorded state with every aliased record moved to its new address, and what moved. */
export interface Moved {
  resources: Record<string, ResourceState>;
  /** New address → the old address its record was under. */
  from: Map<string, string>;
  diagnostics: Diagnostic[];
}

/**
 * Evaluates the aliases written with `${...}`, then matches each resource's aliases against the
 * records. An alias not known yet, one that names a resource the manifest declares, a resource
 * recorded under both its address and an alias (or under two aliases), a record two resources
 * claim, or a record of another type is an error naming both.
 */
export async function moveAliased(manifest: Manifest, recorded: Record<string, ResourceState>, deps: EngineDeps): Promise<Moved> {
  // Evaluated apart from the plan's values: nothing a resource makes is known yet, and a variable
  // read here must not be kept with that unknown for the resources planned after.
  const diagnostics = await resolveAliases(manifest, new Evaluation(manifest, deps, (address) => new Unknown(address)).scope(), 'refuse');
  diagnostics.push(...declaredAliases(manifest));
  const from = new Map<string, string>();
  const claimedBy = new Map<string, string>();
  const error = (address: string, alias: Alias, summary: string, detail: string) => diagnostics.push({ severity: 'error', summary, detail, address, pos: { file: manifest.file, ...alias.pos } });
  for (const [address, decl] of Object.entries(manifest.resources)) {
    const aliases = (decl.options.aliases ?? []).filter((a) => a.name !== address);
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

/**
 * Interrupted creates still looked for (see Settled.waiting) at an address that a declared resource
 * of their type names as its alias: like a record, each is that resource's, and is looked for, and
 * adopted, at its address — when the record there moved from that address (a replacement's
 * order), or there is none. A resource with a record of its own keeps it, and the create stays
 * where it was.
 */
export function moveWaiting(manifest: Manifest, waiting: PendingOperation[], moved: Moved): PendingOperation[] {
  return waiting.map((op) => {
    if (manifest.resources[op.address]) return op;
    const to = Object.entries(manifest.resources).find(
      ([address, decl]) => decl.token === op.type && (decl.options.aliases ?? []).some((a) => a.name === op.address) && (!moved.resources[address] || moved.from.get(address) === op.address),
    );
    return to ? { ...op, address: to[0] } : op;
  });
}

/** Aliases that name a resource the manifest declares: known from the manifest alone, so checked before anything else too. */
export function declaredAliases(manifest: Manifest): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const [address, decl] of Object.entries(manifest.resources)) {
    for (const alias of decl.options.aliases ?? []) {
      if (alias.name === address || !Object.hasOwn(manifest.resources, alias.name)) continue;
      diagnostics.push({
        severity: 'error',
        summary: `alias "${alias.name}" of ${address} names a resource the manifest declares: ${alias.name}`,
        detail: `an alias is an address ${address} was recorded under before; rename or remove one of ${address} and ${alias.name}`,
        address,
        pos: { file: manifest.file, ...alias.pos },
      });
    }
  }
  return diagnostics;
}

/**
 * Aliases written with `${...}` that read what a resource makes, directly or through variables:
 * an alias is matched against the records before anything is planned, so it must be known then.
 */
export function aliasesReadingResources(manifest: Manifest, graph: ManifestGraph): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const [address, decl] of Object.entries(manifest.resources)) {
    for (const alias of decl.options.aliases ?? []) {
      if (!alias.expr) continue;
      const made = new Set<string>();
      for (const ref of refsOf(alias.expr)) {
        const kind = graph.kindOf(ref.root);
        if (kind === 'resource') made.add(ref.root);
        else if (kind === 'variable') for (const dep of graph.resourceDependencies(ref.root)) made.add(dep);
      }
      if (!made.size) continue;
      diagnostics.push({
        severity: 'error',
        summary: `alias "${alias.name}" of ${address} is known only after apply: it reads ${[...made].join(', ')}`,
        detail: ALIAS_KNOWN,
        address,
        pos: { file: manifest.file, ...alias.pos },
      });
    }
  }
  return diagnostics;
}

const ALIAS_KNOWN = 'an alias must be known when planning: it may use config, variables and lookups, not what resources make';

/**
 * Gives each alias written with `${...}` the name (and type, from a URN) it evaluates to. One not
 * known yet is left as written when `unknown` is `wait` (the checks made before any call, where
 * lookups give nothing) and is an error when `refuse` (planning, which matches it against the
 * records). A value that is not a name or a URN is an error at the alias either way.
 */
export async function resolveAliases(manifest: Manifest, scope: Scope, unknown: 'wait' | 'refuse'): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  for (const [address, decl] of Object.entries(manifest.resources)) {
    for (const alias of decl.options.aliases ?? []) {
      if (!alias.expr) continue;
      const where = { address, pos: { file: manifest.file, ...alias.pos } };
      try {
        const value = reveal(await evaluate(alias.expr, scope));
        if (containsUnknown(value)) {
          if (unknown === 'refuse') diagnostics.push({ severity: 'error', summary: `alias "${alias.name}" of ${address} is known only after apply`, detail: ALIAS_KNOWN, ...where });
          continue;
        }
        const named = typeof value === 'string' && value ? fromText(value) : undefined;
        if (named) Object.assign(alias, { name: named.name, type: named.type ?? alias.type });
        else diagnostics.push({ severity: 'error', summary: `${aliasNotText(alias.name)}: it is ${JSON.stringify(value)}`, detail: ALIAS_FORMS, ...where });
      } catch (err) {
        if (!(err instanceof EvalError)) throw err;
        diagnostics.push({ severity: 'error', summary: err.message, detail: err.detail, address, pos: { file: manifest.file, ...err.pos } });
      }
    }
  }
  return diagnostics;
}

/**
 * The records with each moved one under its new address, the objects set aside at its old address
 * too (`old~id` → `new~id`), and dependencies on it renamed.
 */
function moveRecords(recorded: Record<string, ResourceState>, from: Map<string, string>): Record<string, ResourceState> {
  const to = new Map([...from].map(([address, old]) => [old, address]));
  const moved: Record<string, ResourceState> = {};
  for (const [key, record] of Object.entries(recorded)) {
    const base = to.get(baseAddress(key));
    const address = base === undefined ? key : isDeposed(key) ? deposedKey(base, record.id) : base;
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

/**
 * Records every planned move in one journal entry, before any step runs: each record, and what is
 * set aside at its address, at its new address and cleared at its old one; and every record that
 * depends on a moved one, with its dependencies renamed as the plan renamed them. A crash after it
 * leaves no id at two addresses, and no dependency on an address that is gone (what orders the
 * deletes of later runs). The interrupted creates that move with them are recorded just before.
 */
export async function recordMoves(changes: Change[], journal: Journal): Promise<void> {
  const records: Records = {};
  const moved = new Set<string>();
  for (const change of changes) {
    const record = change.movedFrom !== undefined ? journal.current[change.address] : undefined;
    if (!record) continue;
    Object.assign(records, { [change.address]: record, [change.movedFrom!]: null });
    moved.add(change.address);
    for (const [key, aside] of Object.entries(journal.current)) {
      if (isDeposed(key) && baseAddress(key) === change.address) Object.assign(records, { [key]: aside, [deposedKey(change.movedFrom!, aside.id)]: null });
    }
  }
  if (!moved.size) return;
  for (const [key, record] of Object.entries(journal.current)) if (!(key in records) && record.dependencies.some((d) => moved.has(d))) records[key] = record;
  // An interrupted create still looked for moves first (see moveWaiting): after a crash here, the
  // record's old address would otherwise keep it, and adopt what it ordered a second time.
  for (const op of journal.unresolved) if (moved.has(op.address)) await journal.restate(op);
  await journal.record(records);
}
