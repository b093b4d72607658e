/**
 * Explicit providers: `pulumi:providers:<provider>` resources, each one more connection to a
 * provider (another account, region or project) with its settings as properties. They have no
 * remote object: they are kept apart from the resources, never planned, recorded or deleted.
 * Resources choose one with `options.provider` or `options.providers`, functions with
 * `fn::invoke`'s `options.provider`; the rest use the one marked `defaultProvider: true`, else the
 * default provider, configured under config:. A provider resource's URN is
 * `...::pulumi:providers:<provider>::<name>`; `${east}` as a value is `{ urn }`.
 */
import { isMap, isScalar, type Node, type Pair, type YAMLMap } from 'yaml';
import { type Expr, type InvokeExpr, type Manifest, type Pos, type ProviderDecl, type RefExpr } from './ast.js';
import { type ErrorFn, keyText } from './expressions.js';
import { type OptionsReader, PIN_OPTIONS, pin, REFUSED_OPTIONS } from './options.js';
import { logicalName } from './urn.js';

/** The type token prefix of a provider resource. */
export const PROVIDER_PREFIX = 'pulumi:providers:';

/** The provider a resource mapping's type names (`pulumi:providers:cloud` → `cloud`), or undefined for any other type. */
export function providerType(node: unknown, deref: OptionsReader['deref']): string | undefined {
  if (!isMap(node)) return undefined;
  const type = deref((node.items as Pair[]).find((p) => keyText(p) === 'type')?.value);
  return isScalar(type) && typeof type.value === 'string' && type.value.startsWith(PROVIDER_PREFIX) ? type.value.slice(PROVIDER_PREFIX.length) : undefined;
}

/** Reads a provider resource; its settings are checked against the provider's once the manifest is read. */
export function providerDecl(address: string, provider: string, node: YAMLMap, pos: Pos, known: string[], reader: OptionsReader): ProviderDecl | undefined {
  const { at, error, toExpr, deref } = reader;
  const decl: ProviderDecl = { address, provider, properties: { kind: 'object', entries: [], pos }, pos };
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
      const properties = value === null || value === undefined ? decl.properties : toExpr(value);
      if (properties.kind === 'object') decl.properties = properties;
      else {
        error(properties.pos, `properties of the provider "${address}" must be a mapping of its settings`, `e.g. { environment: production } (the keys of config ${provider}:<key>)`, address);
        ok = false;
      }
    } else if (key === 'name') {
      const name = logicalName(value, at(pair.key as Node), address, reader);
      if (name) decl.name = name;
    } else if (key === 'defaultProvider') {
      if (isScalar(value) && typeof value.value === 'boolean') decl.defaultProvider = value.value;
      else error(at((value ?? pair.key) as Node), 'defaultProvider must be true or false', undefined, address);
    } else if (key === 'options') {
      providerOptions(decl, value, at((value ?? pair.key) as Node), reader);
    } else {
      error(at(pair.key as Node), `"${key}" is not supported on the provider "${address}"`, 'a provider resource takes type, name, defaultProvider, properties and options', address);
    }
  }
  return ok ? decl : undefined;
}

/** Why each resource option means nothing on a provider resource, which makes no remote object. */
const NOT_FOR_PROVIDERS = 'a provider resource makes no remote object: there is nothing to protect, replace, import, time or keep';

/** `options` of a provider resource: provider pins (noted), dependsOn (checked, nothing waits), parent; the rest refused with the reason. */
function providerOptions(decl: ProviderDecl, node: Node | null | undefined, pos: Pos, reader: OptionsReader): void {
  const { at, error, toExpr, deref } = reader;
  if (!isMap(node)) {
    error(pos, `options of the provider "${decl.address}" must be a mapping`, undefined, decl.address);
    return;
  }
  for (const pair of node.items as Pair[]) {
    const key = keyText(pair);
    const value = deref(pair.value) as Node;
    const valuePos = at((value ?? pair.key) as Node);
    if (PIN_OPTIONS.has(key)) pin(key, value, valuePos, decl.address, reader);
    else if (key === 'dependsOn') {
      const expr = toExpr(value);
      decl.dependsOn = [];
      for (const item of expr.kind === 'list' ? expr.items : [expr]) {
        if (item.kind === 'ref' && item.path.length === 0) decl.dependsOn.push(item);
        else error(item.pos, 'dependsOn takes resource references like ${port}', undefined, decl.address);
      }
    } else {
      const why = REFUSED_OPTIONS[key] ?? `${NOT_FOR_PROVIDERS}; it takes version, pluginDownloadURL (both ignored) and dependsOn`;
      error(at(pair.key as Node), `option "${key}" is not supported on the provider "${decl.address}"`, why, decl.address);
    }
  }
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
  useDefaultProviders(manifest, error);
}

/**
 * `defaultProvider: true` on a provider resource: every resource and call of its provider that
 * names no provider goes through it (as in Pulumi YAML); two for one provider are an error.
 */
function useDefaultProviders(manifest: Manifest, error: ErrorFn): void {
  const defaults = new Map<string, ProviderDecl>();
  for (const decl of Object.values(manifest.providers)) {
    if (!decl.defaultProvider) continue;
    const other = defaults.get(decl.provider);
    if (other) error(decl.pos, `"${decl.address}" and "${other.address}" are both the default ${decl.provider} provider`, 'set defaultProvider: true on one of them', decl.address);
    else defaults.set(decl.provider, decl);
  }
  if (!defaults.size) return;
  for (const decl of Object.values(manifest.resources)) {
    const chosen = defaults.get(decl.token.split(':')[0]);
    if (chosen && !decl.provider && !decl.options.provider && !decl.options.providers?.length) decl.provider = chosen.address;
  }
  for (const invoke of invokesOf(manifest, true)) {
    const chosen = defaults.get(invoke.fn.split(':')[0]);
    if (chosen) invoke.provider = { kind: 'ref', root: chosen.address, path: [], text: chosen.address, pos: invoke.pos };
  }
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

/** Every fn::invoke in the manifest that names a provider (with `unnamed`, every one that names none). */
function invokesOf(manifest: Manifest, unnamed = false): InvokeExpr[] {
  const found: InvokeExpr[] = [];
  const walk = (expr: Expr | undefined): void => {
    if (!expr) return;
    if (expr.kind === 'invoke') {
      if (!expr.provider === unnamed) found.push(expr);
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
