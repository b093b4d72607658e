/**
 * Explicit providers: `pulumi:providers:<provider>` resources, each one more connection to a
 * provider (another account, region or project) with its settings as properties. They have no
 * remote object: they are kept apart from the resources, never planned, recorded or deleted.
 * Resources choose one with `options.provider` or `options.providers`, functions with
 * `fn::invoke`'s `options.provider`; the rest use the default provider, configured under config:.
 */
import { isMap, isScalar, type Node, type Pair, type YAMLMap } from 'yaml';
import { type Expr, type InvokeExpr, type Manifest, type Pos, type ProviderDecl, type RefExpr } from './ast.js';
import { type ErrorFn, keyText } from './expressions.js';
import type { OptionsReader } from './options.js';

/** The type token prefix of a provider resource. */
export const PROVIDER_PREFIX = 'pulumi:providers:';

/** The provider a resource mapping's type names (`pulumi:providers:cloud` → `cloud`), or undefined for any other type. */
export function providerType(node: unknown, deref: OptionsReader['deref']): string | undefined {
  if (!isMap(node)) return undefined;
  const type = deref((node.items as Pair[]).find((p) => keyText(p) === 'type')?.value);
  return isScalar(type) && typeof type.value === 'string' && type.value.startsWith(PROVIDER_PREFIX) ? type.value.slice(PROVIDER_PREFIX.length) : undefined;
}

/** Reads a provider resource; its settings are checked against the provider's once the manifest is read. */
export function providerDecl(address: string, provider: string, node: YAMLMap, pos: Pos, known: string[], { at, error, toExpr, deref }: OptionsReader): ProviderDecl | undefined {
  let properties: Expr = { kind: 'object', entries: [], pos };
  let ok = true;
  for (const pair of node.items as Pair[]) {
    const key = keyText(pair);
    const value = deref(pair.value);
    if (key === 'type') {
      if (!known.includes(provider)) {
        error(at(value as Node), `unknown provider "${provider}"`, `provider resource types: ${known.map((k) => PROVIDER_PREFIX + k).join(', ')}`, address);
        ok = false;
      }
    } else if (key === 'properties') {
      properties = value === null || value === undefined ? properties : toExpr(value);
      if (properties.kind !== 'object') {
        error(properties.pos, `properties of the provider "${address}" must be a mapping of its settings`, `e.g. { environment: production } (the keys of config ${provider}:<key>)`, address);
        ok = false;
      }
    } else {
      const why =
        key === 'defaultProvider'
          ? 'the default provider is the one configured under config: (e.g. interconnect:environment); choose this one with options.provider'
          : key === 'options'
            ? "plumb's providers are built in: a provider resource takes no options"
            : 'a provider resource takes type and properties';
      error(at(pair.key as Node), `"${key}" is not supported on the provider "${address}"`, why, address);
    }
  }
  return ok && properties.kind === 'object' ? { address, provider, properties, pos } : undefined;
}

/**
 * Sets each resource's provider from its options and checks every provider option (resources'
 * and invokes'): it must name a provider resource, of the provider the resource or function
 * belongs to. `declared` names what else each name is, for the message.
 */
export function resolveProviders(manifest: Manifest, error: ErrorFn, declared: (name: string) => string | undefined): void {
  const check = (ref: RefExpr, kind: string, address?: string): string | undefined => {
    const target = manifest.providers[ref.root];
    if (!target || ref.path.length) {
      const what = ref.path.length ? 'a field' : (declared(ref.root) ?? 'not declared');
      error(ref.pos, `\${${ref.text}} is ${what}, not a provider resource`, `declare one with type: ${PROVIDER_PREFIX}${kind} and name it as \${name}`, address);
      return undefined;
    }
    if (target.provider !== kind) {
      const mine = address ? `${address} is ${article(kind)} ${kind} resource` : `this is ${article(kind)} ${kind} function`;
      error(ref.pos, `\${${ref.text}} is ${article(target.provider)} ${target.provider} provider; ${mine}`, `name a ${PROVIDER_PREFIX}${kind} resource`, address);
      return undefined;
    }
    return target.address;
  };
  for (const decl of Object.values(manifest.resources)) {
    const kind = decl.token.split(':')[0];
    const { provider, providers } = decl.options;
    if (provider) decl.provider = check(provider, kind, decl.address);
    for (const { ref, name } of providers ?? []) {
      const target = manifest.providers[ref.root];
      if (target && name !== undefined && target.provider !== name) {
        error(ref.pos, `providers.${name} names \${${ref.text}}, ${article(target.provider)} ${target.provider} provider`, `name a ${PROVIDER_PREFIX}${name} resource`, decl.address);
        continue;
      }
      // Entries for other providers are accepted unused: Pulumi passes them on to children.
      if ((name ?? target?.provider) !== kind && target) continue;
      const chosen = check(ref, name ?? kind, decl.address);
      if (!provider && chosen && (name ?? kind) === kind) decl.provider = chosen;
    }
  }
  for (const invoke of invokesOf(manifest)) {
    if (invoke.provider) check(invoke.provider, invoke.fn.split(':')[0]);
  }
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

/** Every fn::invoke in the manifest that names a provider. */
function invokesOf(manifest: Manifest): InvokeExpr[] {
  const found: InvokeExpr[] = [];
  const walk = (expr: Expr | undefined): void => {
    if (!expr) return;
    if (expr.kind === 'invoke') {
      if (expr.provider) found.push(expr);
      walk(expr.args);
    } else if (expr.kind === 'object') for (const e of expr.entries) walk(e.value);
    else if (expr.kind === 'list') for (const e of expr.items) walk(e);
    else if (expr.kind === 'secret' || expr.kind === 'builtin' || expr.kind === 'mapping') walk(expr.kind === 'secret' || expr.kind === 'mapping' ? expr.value : expr.arg);
  };
  const exprs: Expr[] = [...Object.values(manifest.variables), ...Object.values(manifest.outputs)];
  for (const decl of Object.values(manifest.resources)) exprs.push(decl.properties);
  exprs.forEach(walk);
  return found;
}
