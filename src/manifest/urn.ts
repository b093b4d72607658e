/**
 * What makes a resource's URN, as Pulumi builds it: `urn:pulumi:<stack>::<project>::<type>::<name>`,
 * where the type is prefixed by its parents' types (`parentType$childType`) and the name is the
 * logical name (`name:`, else the address). plumb's plans and state go by the address; the URN is
 * what `${res.urn}` gives and what must be unique, as Pulumi requires.
 */
import { isScalar, type Node } from 'yaml';
import type { Manifest, Pos, ResourceDecl } from './ast.js';
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
  const inherit = (decl: ResourceDecl, visiting: Set<string>): void => {
    if (done.has(decl.address) || visiting.has(decl.address)) return;
    visiting.add(decl.address);
    const ref = decl.options.parent;
    const parent = ref && manifest.resources[ref.root];
    if (ref && !parent) {
      const what = declared(ref.root);
      if (what) error(ref.pos, `parent \${${ref.text}} is ${what}, not a resource`, 'a parent is another resource under resources:', decl.address);
    }
    if (parent) {
      inherit(parent, visiting);
      inheritFrom(manifest, decl, parent);
    }
    done.add(decl.address);
  };
  for (const decl of Object.values(manifest.resources)) inherit(decl, new Set());
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
  const seen = new Map<string, string>();
  const addresses = [...Object.keys(manifest.providers), ...Object.keys(manifest.resources)];
  for (const address of addresses) {
    const urn = urnOf(manifest, address) as string;
    const other = seen.get(urn);
    const pos = (manifest.resources[address] ?? manifest.providers[address]).pos;
    if (other) error(pos, `"${address}" and "${other}" have one URN, ${urn}`, 'give one of them another name: (Pulumi refuses two resources with one URN)', address);
    else seen.set(urn, address);
  }
}
