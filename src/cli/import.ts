import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import PQueue from 'p-queue';
import { stringify } from 'yaml';
import * as z from 'zod';
import { inputFields, managedElsewhere, readForImport } from '../engine/planning/import.js';
import { realId } from '../engine/applying/ids.js';
import { resourceContext } from '../engine/applying/context.js';
import { DiagnosticsError, type Diagnostic } from '../kernel/diagnostics.js';
import { UserError } from '../kernel/errors.js';
import { resolveToken } from '../manifest/tokens.js';
import { tokenHint } from '../kernel/did-you-mean.js';
import { decodeUtf8, readYaml } from '../manifest/yaml-source.js';
import { loadResourceTypes } from './catalog.js';
import type { ResourceType } from '../engine/contracts/resource-type.js';
import type { ResourceState } from '../engine/contracts/state.js';
import { mask } from '../kernel/values.js';
import { lockInfo, manifestPath, openSession, type GlobalOptions } from './session.js';

const importList = z.array(z.object({ address: z.string().min(1), type: z.string().min(1), id: z.string().min(1) }).strict());

/** `plumb import ADDR TOKEN ID`, `--file imports.yaml` or `--discover TOKEN`. */
export async function importCommand(
  args: string[],
  opts: GlobalOptions & { file?: string; importFile?: string; discover?: string; out?: string; lockTimeout?: number; parallelism?: number; force?: boolean },
): Promise<number> {
  const manifestFile = manifestPath(undefined, opts);
  // A misspelt type stops the command before anything is read or imported, with the type meant.
  const types = await loadResourceTypes();
  const discovered = opts.discover === undefined ? undefined : typeFor(opts.discover, types);
  const requests = discovered ? [] : opts.importFile ? readImportFile(opts.importFile, types) : single(args);
  for (const r of requests) typeFor(r.type, types);
  const session = await openSession(manifestFile, opts);
  try {
    if (discovered) return await discover(session, discovered, opts.out, Boolean(opts.force));
    await session.store.lock(lockInfo('import'), opts.lockTimeout);
    const state = await session.store.read();
    for (const r of requests) {
      if (state.resources[r.address]) throw new UserError(`${r.address} is already in state (id ${state.resources[r.address].id})`, 'use another address, or `plumb state rm` it first');
    }
    const queue = new PQueue({ concurrency: opts.parallelism ?? Infinity });
    const failures: string[] = [];
    const imported: ResourceState[] = [];
    // One object under two addresses would be managed (and deleted) twice.
    const holder = new Map(Object.values(state.resources).map((r) => [`${r.type} ${realId(r)}`, r.address]));
    for (const r of requests) {
      void queue.add(async () => {
        try {
          const type = typeFor(r.type, types);
          // An object another project or stack manages is imported only with --force, and said so.
          const found = await readForImport(type, r.address, r.id, session.deps, {
            force: opts.force,
            provider: session.manifest.resources[r.address]?.provider,
            warn: (message) => process.stderr.write(`Warning: ${message}\n`),
          });
          const key = `${found.type} ${realId(found)}`;
          const other = holder.get(key);
          if (other) throw new UserError(`${found.id} is already in state as ${other} (plumb state mv ${other} ${r.address} gives it this address)`);
          holder.set(key, r.address);
          await session.store.record({ kind: 'outcome', address: r.address, resource: found, at: new Date().toISOString() });
          imported.push(found);
        } catch (err) {
          failures.push((err as Error).message.startsWith(`${r.address}:`) ? (err as Error).message : `${r.address}: ${(err as Error).message}`);
        }
      });
    }
    await queue.onIdle();
    const resources = { ...state.resources };
    for (const r of imported) resources[r.address] = r;
    await session.store.write({ ...state, serial: state.serial + imported.length, resources });
    return report(imported, requests.length, failures);
  } finally {
    await session.close();
  }
}

/** What was imported, as the manifest entries that would manage it, and what failed: exit 1 if anything did. */
function report(imported: ResourceState[], asked: number, failures: string[]): number {
  imported.sort((a, b) => a.address.localeCompare(b.address));
  process.stdout.write(`Imported ${imported.length} of ${asked}.`);
  if (imported.length) {
    process.stdout.write(` Add this to the manifest to manage ${imported.length === 1 ? 'it' : 'them'}:\n\n`);
    process.stdout.write(stringify({ resources: Object.fromEntries(imported.map((r) => [r.address, { type: r.type, properties: mask(r.inputs) }])) }));
  } else process.stdout.write('\n');
  if (!failures.length) return 0;
  process.stderr.write(`Failed:\n  ${failures.join('\n  ')}\n`);
  return 1;
}

async function discover(session: Awaited<ReturnType<typeof openSession>>, type: ResourceType, out: string | undefined, force: boolean): Promise<number> {
  if (!type.list) throw new UserError(`${type.token} cannot list its remote objects; import them one by one with plumb import ADDR TOKEN ID`);
  // An id that is itself a secret (a service key) goes only to a file only the user can read.
  if (type.secrets?.id && !out) throw new UserError(`the ids of ${type.token} are secrets, so they are not printed`, 'pass --out FILE to write the import manifest to a file only you can read');
  const state = await session.store.read();
  const known = new Set(
    Object.values(state.resources)
      .filter((r) => r.type === type.token)
      .map((r) => realId(r)),
  );
  const ctx = await resourceContext(session.deps, type, 'discover');
  const found = [];
  for (const o of (await type.list(ctx)).filter((o) => !known.has(o.id))) {
    // Another state's objects are listed only with --force, and always named.
    const foreign = await managedElsewhere(type, ctx, o.id, session.deps);
    if (foreign) process.stderr.write(`${force ? 'Warning' : 'Left out'}: ${foreign}\n`);
    if (!foreign || force) found.push(o);
  }
  const taken = new Set([...Object.keys(state.resources), ...Object.keys(session.manifest.resources)]);
  const resources: Record<string, unknown> = {};
  for (const o of found) {
    const outputs = o.outputs as Record<string, unknown>;
    const name = outputs.productName ?? outputs.description ?? (type.secrets?.id ? type.token.split(':').pop() : o.id);
    const address = uniqueAddress(String(name), taken);
    resources[address] = { type: type.token, properties: mask(inputFields(type, o.outputs as Record<string, unknown>)), options: { import: o.id } };
  }
  const text = stringify({ resources });
  if (out) writeFileSync(out, text, type.secrets?.id ? { mode: 0o600 } : undefined);
  else process.stdout.write(text);
  process.stderr.write(`${found.length} ${type.token} not yet in state${out ? `; written to ${out}` : ''}.\n`);
  return 0;
}

function uniqueAddress(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')).replace(/^[^A-Za-z]+/, '') || 'imported';
  const first = base.charAt(0).toLowerCase() + base.slice(1);
  let address = first;
  for (let i = 2; taken.has(address); i++) address = `${first}${i}`;
  taken.add(address);
  return address;
}

function typeFor(raw: string, types: ReadonlyMap<string, ResourceType>): ResourceType {
  const token = resolveToken(raw, types.keys());
  if (!token) throw new UserError(`unknown resource type "${raw}"`, tokenHint(raw, types.keys(), 'plumb schema lists every resource type'));
  return types.get(token)!;
}

function single(args: string[]) {
  if (args.length !== 3) throw new UserError('plumb import needs ADDR TOKEN ID (or --file imports.yaml, or --discover TOKEN)');
  return [{ address: args[0], type: args[1], id: args[2] }];
}

function readImportFile(file: string, types: ReadonlyMap<string, ResourceType>) {
  if (!existsSync(file)) throw new UserError(`import file ${file} not found`);
  if (statSync(file).isDirectory()) throw new UserError(`${file} is a folder, not an import file`);
  const decoded = decodeUtf8(readFileSync(file), file);
  if (decoded.diagnostics.length) throw new DiagnosticsError(decoded.diagnostics);
  const { doc, at: pos, diagnostics } = readYaml(decoded.text, file);
  if (diagnostics.length) throw new DiagnosticsError(diagnostics);
  const at = (node: { range?: [number, number, number] | null } | undefined) => {
    const { line, column } = pos(node);
    return `${file}:${line}:${column}`;
  };
  // What aliases copy has been bounded by readYaml.
  const parsed = importList.safeParse(doc.toJS({ maxAliasCount: -1 }), { reportInput: true });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const node = (doc.getIn(i.path, true) ?? doc.getIn(i.path.slice(0, -1), true)) as { range?: [number, number, number] } | undefined;
      const missing = i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined;
      return `${at(node)}: ${missing ? `item ${String(i.path[0])} has no "${String(i.path.at(-1))}"` : `${i.path.join('.') || 'the file'}: ${i.message}`}`;
    });
    throw new UserError(problems.join('\n'), 'expected a list of {address, type, id}, e.g. - { address: edge, type: interconnect:Port, id: <product uid> }');
  }
  const unknown: Diagnostic[] = parsed.data.flatMap((r, i) => {
    if (resolveToken(r.type, types.keys())) return [];
    const node = doc.getIn([i, 'type'], true) as { range?: [number, number, number] } | undefined;
    return [
      {
        severity: 'error',
        summary: `unknown resource type "${r.type}"`,
        detail: tokenHint(r.type, types.keys(), 'plumb schema lists every resource type'),
        address: r.address,
        pos: { file, ...pos(node) },
      },
    ];
  });
  if (unknown.length) throw new DiagnosticsError(unknown);
  const seen = new Set<string>();
  for (const r of parsed.data) {
    if (seen.has(r.address)) throw new UserError(`${file}: address ${r.address} appears twice`);
    seen.add(r.address);
  }
  return parsed.data;
}
