/**
 * What makes a resource's URN, as Pulumi builds it: `urn:pulumi:<stack>::<project>::<type>::<name>`,
 * where the type is prefixed by its parents' types (`parentType$childType`) and the name is the
 * logical name (`name:`, else the address). plumb's plans and state go by the address; the URN is
 * what `${res.urn}` gives and what must be unique, as Pulumi requires.
 */
import { isScalar, type Node } from 'yaml';
import { type Expr, type Manifest, type Pos, type RefExpr, refsOf, type ResourceDecl, resourceRefs } from './ast.js';
import type { ErrorFn } from './expressions.js';
import type { OptionsReader } from './options.js';
import { PROVIDER_PREFIX } from './provider-decl.js';

/** The logical name written as `name:` at `pos`: literal text, as in Pulumi YAML; undefined (reported) otherwise. */
export function logicalName(node: Node | null | undefined, pos: Pos, address: string, { at, error }: Pick<OptionsReader, 'at' | 'error'>): string | undefined {
  if (isScalar(node) && typeof node.value === 'string' && node.value !== '' && !node.value.includes('${')) return node.value;
  error(node ? at(node) : pos, `name of "${address}" must be literal text`, "it is the resource's logical name, the last part of its URN (its address stays its key under resources:)", address);
  return undefined;
}

/** The URN of the resource or provider resource at `address`, or undefined when there is none. */
export function urnOf(manifest: Manifest, address: string): string | undefined {
  const prefix = `urn:pulumi:${manifest.stack}::${manifest.project}::`;
  const provider = manifest.providers[address];
  if (provider) return `${prefix}${PROVIDER_PREFIX}${provider.provider}::${provider.name ?? address}`;
  const decl = manifest.resources[address];
  if (!decl) return undefined;
  const types = [decl.token];
  const seen = new Set([address]);
  // A parent cycle is reported by the graph; the URN then stops where the cycle closes.
  for (let parent = parentOf(manifest, decl); parent && !seen.has(parent.address); parent = parentOf(manifest, parent)) {
    seen.add(parent.address);
    types.unshift(parent.token);
  }
  return `${prefix}${types.join('$')}::${decl.name ?? address}`;
}

function parentOf(manifest: Manifest, decl: ResourceDecl): ResourceDecl | undefined {
  const root = decl.options.parent?.root;
  return root === undefined ? undefined : manifest.resources[root];
}

/**
 * Checks each `parent` option (it must name a resource; one not declared at all is reported by
 * the graph, with did-you-mean) and gives each child what Pulumi's children take from their
 * parent when they set none of their own: the provider (of the child's own provider), protect
 * and retainOnDelete.
 */
export function resolveParents(manifest: Manifest, error: ErrorFn, declared: (name: string) => string | undefined): void {
  const done = new Set<string>();
  for (const decl of Object.values(manifest.resources)) {
    const ref = decl.options.parent;
    const what = ref && !manifest.resources[ref.root] ? declared(ref.root) : undefined;
    if (ref && what) error(ref.pos, `parent \${${ref.text}} is ${what}, not a resource`, 'a parent is another resource under resources:', decl.address);
    // The chain up to a resolved ancestor (or the top, or a cycle the graph reports), walked
    // without recursion: a chain of parents may be as long as the manifest.
    const chain: ResourceDecl[] = [];
    const inChain = new Set<string>();
    for (let at: ResourceDecl | undefined = decl; at && !done.has(at.address) && !inChain.has(at.address); at = parentOf(manifest, at)) {
      chain.push(at);
      inChain.add(at.address);
    }
    // Parents first; in a cycle, the first of it takes nothing.
    for (const child of chain.reverse()) {
      const parent = parentOf(manifest, child);
      if (parent && done.has(parent.address)) inheritFrom(manifest, child, parent);
      done.add(child.address);
    }
  }
}

/** What `decl` takes from `parent` (already resolved): options it does not set itself. */
function inheritFrom(manifest: Manifest, decl: ResourceDecl, parent: ResourceDecl): void {
  const options = decl.options;
  const written = options.positions ?? {};
  const kind = decl.token.split(':')[0];
  if (!decl.provider && !options.provider && !options.providers?.length) {
    const fromMap = parent.options.providers?.find(({ ref, name }) => (name ?? manifest.providers[ref.root]?.provider) === kind)?.ref.root;
    const chosen = parent.token.split(':')[0] === kind ? parent.provider : fromMap && manifest.providers[fromMap] ? fromMap : undefined;
    if (chosen) decl.provider = chosen;
  }
  if (!written.protect) {
    options.protect = parent.options.protect;
    if (parent.options.protectExpr) options.protectExpr = parent.options.protectExpr;
  }
  if (!written.retainOnDelete) options.retainOnDelete = parent.options.retainOnDelete;
}

/** Two resources (or provider resources) with one URN are an error, as in Pulumi: their logical names must differ. */
export function checkUrns(manifest: Manifest, error: ErrorFn): void {
  // Only resources of one type and name can share a URN: their parents' types are compared then.
  const byName = new Map<string, string[]>();
  for (const [address, decl] of Object.entries(manifest.providers)) group(byName, `${PROVIDER_PREFIX}${decl.provider}::${decl.name ?? address}`, address);
  for (const [address, decl] of Object.entries(manifest.resources)) group(byName, `${decl.token}::${decl.name ?? address}`, address);
  for (const addresses of byName.values()) {
    if (addresses.length < 2) continue;
    const seen = new Map<string, string>();
    for (const address of addresses) {
      const urn = urnOf(manifest, address) as string;
      const other = seen.get(urn);
      const pos = (manifest.resources[address] ?? manifest.providers[address]).pos;
      if (other) error(pos, `"${address}" and "${other}" have one URN, ${urn}`, 'give one of them another name: (Pulumi refuses two resources with one URN)', address);
      else seen.set(urn, address);
    }
  }
}

function group(groups: Map<string, string[]>, key: string, address: string): void {
  const list = groups.get(key);
  if (list) list.push(address);
  else groups.set(key, [address]);
}

/**
 * A provider resource used as a value gives its URN and nothing else (it makes no remote object):
 * `${east.region}` is an error at the reference, where it would otherwise read as nothing.
 */
export function checkProviderFields(manifest: Manifest, error: ErrorFn): void {
  if (!Object.keys(manifest.providers).length) return;
  const refs: RefExpr[] = [];
  const exprs: Expr[] = [...Object.values(manifest.variables), ...Object.values(manifest.outputs)];
  for (const expr of exprs) refsOf(expr, refs);
  for (const decl of Object.values(manifest.resources)) resourceRefs(decl, refs);
  for (const decl of Object.values(manifest.providers)) refsOf(decl.properties, refs);
  for (const ref of refs) {
    if (!Object.hasOwn(manifest.providers, ref.root) || !ref.path.length || (ref.path.length === 1 && ref.path[0] === 'urn')) continue;
    error(ref.pos, `\${${ref.text}}: ${ref.root} is a provider resource, which gives only its urn`, `use \${${ref.root}.urn}, or \${${ref.root}} for { urn }`);
  }
}
