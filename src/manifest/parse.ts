import { createHash } from 'node:crypto';
import { basename, dirname, extname, resolve } from 'node:path';
import { isAlias, isMap, isScalar, type Node, type Pair, type YAMLMap } from 'yaml';
import { type Diagnostic, warningAt } from '../kernel/diagnostics.js';
import { projectNameProblem } from '../kernel/names.js';
import { BUILTIN_ROOTS, type Expr, type Manifest, type Pos, type ResourceDecl, refsOf, resourceRefs } from './ast.js';
import { readConfigSection } from './config-decl.js';
import { checkRuntime, mergeProject, PROJECT_FILE, REFUSED_PROJECT_KEYS, type ProjectDecls } from './project.js';
import { type AtFn, type ErrorFn, expressionReader, keyText } from './expressions.js';
import { readGet } from './get-decl.js';
import { type OptionsReader, pinsNote, resourceOptions } from './options.js';
import { checkProviderFields, checkUrns, logicalName, resolveParents } from './urn.js';
import { providerDecl, providerType, resolveProviders } from './provider-decl.js';
import { isStackReference, stackReferenceValue } from './stack-reference.js';
import { closest, resolveToken } from './tokens.js';
import { closestName } from '../kernel/did-you-mean.js';
import { readYaml } from './yaml-source.js';

/** The tokens a manifest may name. */
export interface Catalog {
  resources: Iterable<string>;
  functions: Iterable<string>;
  /**
   * The settings of each config namespace that is not a project's (a provider's, plumb's own), by
   * namespace: `plumb:maxMonthlyIncrease` stays plumb's setting in a manifest whose project goes by
   * the same name (an unnamed plumb.yaml). Absent: none are known.
   */
  settings?: Readonly<Record<string, readonly string[]>>;
}

/** The providers a catalog's resource tokens belong to (their first segment). */
function providerNames(resources: string[]): string[] {
  return [...new Set(resources.map((t) => t.split(':')[0]))];
}

/** The config namespaces of settings that are not a project's: each provider's, and plumb's (and pulumi's). */
function settingsNamespaces(catalog: Catalog): string[] {
  return [...Object.keys(catalog.settings ?? {}), ...BUILTIN_ROOTS];
}

/**
 * A project named as a namespace of settings that are not its own (a provider's, plumb's) could
 * not tell its config keys (`<project>:key`) from those settings: one would be taken for the other.
 */
function namespaceClash(project: string, catalog: Catalog): { summary: string; detail: string } | undefined {
  if (!settingsNamespaces(catalog).includes(project)) return undefined;
  const owner = BUILTIN_ROOTS.has(project) ? `${project}'s own settings` : `the ${project} provider's settings`;
  return {
    summary: `the project "${project}" is named as the config namespace of ${owner}, so its config keys (${project}:<key>) and those settings could not be told apart`,
    detail: 'name the project otherwise (name: at the top of the manifest, or of Pulumi.yaml; a manifest without a name goes by its file name)',
  };
}

const TOP_LEVEL = ['name', 'runtime', 'description', 'config', 'configuration', 'variables', 'resources', 'outputs', 'template'];
const RESOURCE_KEYS = ['type', 'name', 'properties', 'options', 'get'];

/** Pulumi YAML keys plumb refuses, with the reason (top level, then in a resource). */
const REFUSED_TOP: Record<string, string> = {
  components: 'components are not supported: declare each resource under resources:',
  packages: "packages are not supported: plumb's providers are built in",
  pulumi: 'the pulumi: section sets the Pulumi CLI version; plumb has none to set',
  main: 'main: is not supported: the manifest is the file plumb is given',
  plugins: "plugins: is not supported: plumb's providers are built in",
  namespace: "namespace: describes a component package; plumb's providers are built in",
  version: "version: describes a component package; plumb's providers are built in",
  ...REFUSED_PROJECT_KEYS,
};
const REFUSED_RESOURCE: Record<string, string> = {
  defaultProvider: 'only a provider resource (type: pulumi:providers:<provider>) may have defaultProvider: it makes that provider resource the one its resources and calls use',
};
/** Result of parsing: the manifest (as far as it could be read) and every problem found. */
export interface ParseResult {
  manifest: Manifest;
  diagnostics: Diagnostic[];
}

/**
 * Parses manifest text, keeping positions; reports every syntax and structure problem at once.
 * `project`: the project file's declarations, for a program kept in another file (Main.yaml).
 */
export function parseManifest(text: string, file: string, catalog: Catalog, project?: ProjectDecls): ParseResult {
  const manifest = emptyManifest(text, file);
  const source = readYaml(text, file, { syntaxHint: (line) => syntaxHint(text, line) });
  const diagnostics = source.diagnostics;
  if (diagnostics.length) return { manifest, diagnostics };
  const { at } = source;
  const error = (pos: Pos, summary: string, detail?: string, address?: string) => diagnostics.push({ severity: 'error', summary, detail, address, pos: { file, ...pos } });
  const invoked = new Set<string>();
  const pins: Array<{ option: string; where: string; pos: Pos }> = [];
  const pinned = (option: string, where: string, pos: Pos) => pins.push({ option, where, pos });
  const toExpr = expressionReader({ at, error, functions: [...catalog.functions], target: source.target, invoked, pinned });
  // An alias where a structure is expected stands for its anchor's node, as anywhere in YAML.
  const deref: Deref = (node) => (isAlias(node) ? source.target(node) : (node as Node | null | undefined));
  const root = deref(source.doc.contents);
  if (!isMap(root)) {
    error(at(root as Node), 'a manifest must be a mapping with name, config, variables, resources and outputs');
    return { manifest, diagnostics };
  }

  const reader: Reader = { at, error, toExpr, deref, pinned };
  const { sections, namePos } = readTopLevel(root, reader, manifest, [...catalog.resources]);
  // `config:` wins over `configuration:` where both name a key, whichever comes first.
  sections.sort((a, b) => (a.key === b.key ? 0 : a.key === 'config' ? -1 : 1));
  for (const { key, value, pos } of sections) {
    readConfigSection(value, reader, manifest.config, key);
    if (key === 'configuration') manifest.warnings.push(warningAt({ file, ...pos }, 'configuration: is the older spelling of config:; it is read the same way'));
  }
  if (project) diagnostics.push(...mergeProject(manifest, project, namePos));
  if (manifest.name !== 'unnamed') manifest.project = manifest.name;
  // A manifest without a name goes by its file's (plumb.yaml: "plumb"); its `plumb:` keys stay plumb's settings.
  const clash = manifest.name !== 'unnamed' || project ? namespaceClash(manifest.project, catalog) : undefined;
  if (clash) diagnostics.push({ severity: 'error', ...clash, pos: project?.namePos ? { file: project.file, ...project.namePos } : { file, ...(namePos ?? { line: 1, column: 1 }) } });
  // A project file checks its own name (readProject), where it is written.
  if (!project) checkProjectName(root, manifest, reader);
  // Only a manifest that writes `<project>:` anywhere can need it stripped (a walk of every reference otherwise).
  if (text.includes(`${manifest.project}:`)) stripProjectNamespace(manifest, error, catalog.settings?.[manifest.project] ?? []);
  checkNamespace(manifest, error);
  resolveProviders(manifest, error, (name) => nameKind(manifest, name));
  resolveParents(manifest, error, (name) => nameKind(manifest, name) ?? (manifest.providers[name] ? 'a provider resource' : undefined));
  checkUrns(manifest, error);
  checkProviderFields(manifest, error);
  const note = pinsNote(pins);
  // One note for every pin, at the first.
  if (note) manifest.warnings.push(warningAt({ file, ...pins[0].pos }, note));
  manifest.invoked = [...invoked];
  return { manifest, diagnostics };
}

/**
 * Reads each top-level key of `root` into `manifest`, reporting unknown and refused keys; returns
 * the config sections, unread, each at its key, and where the name is.
 */
function readTopLevel(root: YAMLMap, reader: Reader, manifest: Manifest, resources: string[]): { sections: Array<{ key: string; value: Node | null; pos: Pos }>; namePos?: Pos } {
  const { at, error, toExpr, deref } = reader;
  const sections: Array<{ key: string; value: Node | null; pos: Pos }> = [];
  let namePos: Pos | undefined;
  for (const pair of root.items as Pair[]) {
    const key = keyText(pair);
    const value = deref(pair.value) ?? null;
    const keyPos = at(pair.key as Node);
    switch (key) {
      case 'runtime':
        checkRuntime(value, at, error);
        break;
      case 'template':
      case 'author':
      case 'website':
      case 'license':
        // Read by the Pulumi CLI (`pulumi new`'s template) or describing the project, never by a program.
        break;
      case 'name':
      case 'description':
        if (!isScalar(value) || typeof value.value !== 'string') error(at(value ?? (pair.key as Node)), `${key} must be a string`);
        else if (key === 'name') [manifest.name, namePos] = [value.value, keyPos];
        else if (key === 'description') manifest.description = value.value;
        break;
      case 'config':
      case 'configuration':
        sections.push({ key, value, pos: keyPos });
        break;
      case 'variables':
        for (const { name, node } of entries(value, at, error, 'variables')) manifest.variables[name] = toExpr(node);
        break;
      case 'outputs':
        for (const { name, node } of entries(value, at, error, 'outputs')) manifest.outputs[name] = toExpr(node);
        break;
      case 'resources':
        for (const { name: address, node, pos } of entries(value, at, error, 'resources')) {
          if (isStackReference(deref(node), deref)) {
            const ref = stackReferenceValue(address, deref(node) as YAMLMap, pos, reader);
            if (ref) manifest.variables[address] = ref;
            continue;
          }
          const provider = providerType(deref(node), deref);
          if (provider !== undefined) {
            const decl = providerDecl(address, provider, deref(node) as YAMLMap, pos, providerNames(resources), reader);
            if (decl) manifest.providers[address] = decl;
            continue;
          }
          const decl = resourceDecl(address, deref(node), pos, reader, resources);
          if (decl) manifest.resources[address] = decl;
        }
        break;
      default: {
        const hint = closestName(key, TOP_LEVEL);
        if (REFUSED_TOP[key]) error(keyPos, `"${key}" is not supported`, REFUSED_TOP[key]);
        else error(keyPos, `unknown top-level key "${key}"`, `valid keys: ${TOP_LEVEL.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`);
      }
    }
  }
  return { sections, namePos };
}

/**
 * The project the manifest's state is kept under (its name, or without one its file's) must be
 * able to name that state; a name that is not a string is reported where it is read.
 */
function checkProjectName(root: YAMLMap, manifest: Manifest, { at, error, deref }: Reader): void {
  const node = deref(root.get('name', true));
  const named = isScalar(node) && typeof node.value === 'string';
  if (root.has('name') && !named) return;
  if (!named && basename(manifest.file) === PROJECT_FILE) {
    error({ line: 1, column: 1 }, `${PROJECT_FILE} has no name:`, 'a Pulumi project is named: name: <project>, which its state is kept under');
    return;
  }
  const problem = projectNameProblem(named ? String(node.value) : manifest.project, named);
  if (problem) error(named ? at(node) : { line: 1, column: 1 }, problem.summary, problem.detail);
}

/**
 * `<project>:key`, in a config key or a reference, is the project's own `key` (as Pulumi strips
 * the project's namespace); a config key may be written either way, once.
 */
function stripProjectNamespace(manifest: Manifest, error: ErrorFn, settings: readonly string[]): void {
  const prefix = `${manifest.project}:`;
  for (const key of Object.keys(manifest.config)) {
    if (!key.startsWith(prefix) || settings.includes(key.slice(prefix.length))) continue;
    const bare = key.slice(prefix.length);
    if (Object.hasOwn(manifest.config, bare)) error(manifest.config[key].pos, `config ${key} is also declared as ${bare}`, 'declare it once');
    else manifest.config[bare] = { ...manifest.config[key], decl: manifest.config[key].decl ?? { secret: false, hasDefault: true } };
    delete manifest.config[key];
  }
  const exprs: Expr[] = [...Object.values(manifest.variables), ...Object.values(manifest.outputs), ...Object.values(manifest.config).map((c) => c.value)];
  const refs = Object.values(manifest.resources).flatMap((r) => resourceRefs(r));
  for (const expr of exprs) refsOf(expr, refs);
  for (const ref of refs) if (ref.root.startsWith(prefix)) ref.root = ref.root.slice(prefix.length);
}

/** A manifest with nothing in it yet, bound to its file and text. */
function emptyManifest(text: string, file: string): Manifest {
  return {
    file,
    dir: dirname(resolve(file)),
    hash: createHash('sha256').update(text).digest('hex'),
    name: 'unnamed',
    project: basename(file, extname(file)),
    stack: 'default',
    warnings: [],
    config: {},
    variables: {},
    resources: {},
    providers: {},
    outputs: {},
    invoked: [],
  };
}

type Deref = (node: unknown) => Node | null | undefined;

/** What reading a resource needs. */
type Reader = OptionsReader;

function entries(value: Node | null, at: AtFn, error: ErrorFn, section: string): Array<{ name: string; node: unknown; pos: Pos }> {
  if (value === null || (isScalar(value) && value.value === null)) return [];
  if (!isMap(value)) {
    error(at(value), `${section} must be a mapping of names to values`);
    return [];
  }
  return (value.items as Pair[]).map((p) => ({ name: keyText(p), node: p.value, pos: at(p.key as Node) }));
}

function resourceDecl(address: string, node: unknown, pos: Pos, reader: Reader, resources: string[]): ResourceDecl | undefined {
  const { at, error, toExpr, deref } = reader;
  if (!isMap(node)) {
    error(pos, `resource "${address}" must be a mapping with type, properties and options`, undefined, address);
    return undefined;
  }
  const get = (k: string) => (node.items as Pair[]).find((p) => isScalar(p.key) && p.key.value === k);
  for (const p of node.items as Pair[]) {
    const k = keyText(p);
    if (REFUSED_RESOURCE[k]) error(at(p.key as Node), `"${k}" is not supported in resource "${address}"`, REFUSED_RESOURCE[k], address);
    else if (!RESOURCE_KEYS.includes(k)) {
      const hint = closestName(k, RESOURCE_KEYS);
      error(at(p.key as Node), `unknown key "${k}" in resource "${address}"`, `valid keys: ${RESOURCE_KEYS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`, address);
    }
  }
  const typePair = get('type');
  const typeNode = deref(typePair?.value) ?? undefined;
  if (!typePair || !isScalar(typeNode) || typeof typeNode.value !== 'string') {
    error(typePair ? at(typeNode) : pos, `resource "${address}" needs a type token, e.g. interconnect:index/port:Port`, undefined, address);
    return undefined;
  }
  const raw = typeNode.value;
  const token = resolveResourceToken(raw, resources);
  if (!token) {
    const hint = closest(raw, resources);
    error(at(typeNode), `unknown resource type "${raw}"`, hint ? `did you mean "${hint}"? (plumb schema lists every type)` : 'plumb schema lists every resource type', address);
    return undefined;
  }
  const propsNode = deref(get('properties')?.value);
  const properties = propsNode === undefined || propsNode === null ? ({ kind: 'object', entries: [], pos } as Expr) : toExpr(propsNode);
  if (properties.kind === 'literal' || properties.kind === 'list') {
    error(properties.pos, `properties of "${address}" must be a mapping, or one expression whose value is a mapping (\${settings})`, undefined, address);
    return undefined;
  }
  const options = resourceOptions(deref(get('options')?.value) ?? undefined, address, reader);
  const namePair = get('name');
  const name = namePair && logicalName(deref(namePair.value), at(namePair.key as Node), address, reader);
  const getPair = get('get');
  const getDecl = getPair && readGet(deref(getPair.value) as Node, node, address, reader);
  if (getPair && !getDecl) return undefined;
  const decl: ResourceDecl = {
    address,
    ...(name ? { name } : {}),
    token,
    properties: properties.kind === 'object' ? properties : { kind: 'mapping', value: properties, pos: properties.pos },
    options,
    ...(getDecl ? { get: getDecl } : {}),
    pos,
    typePos: at(typeNode),
  };
  return decl;
}

/** Config keys without a namespace, variables and resources share one namespace. */
function checkNamespace(manifest: Manifest, error: ErrorFn): void {
  const seen = new Map<string, string>();
  const claim = (name: string, kind: string, pos: Pos) => {
    if (BUILTIN_ROOTS.has(name)) error(pos, `"${name}" is a reserved name: \${${name}.stack} and the like are built in`, `name the ${kind.replace(/^an? /, '')} otherwise`);
    const other = seen.get(name);
    if (other) error(pos, `"${name}" is declared as both ${other} and ${kind}`, 'config keys, variables and resources share one namespace');
    else seen.set(name, kind);
  };
  for (const [k, c] of Object.entries(manifest.config)) if (!k.includes(':')) claim(k, 'a config key', c.pos);
  for (const [k, v] of Object.entries(manifest.variables)) claim(k, 'a variable', v.pos);
  for (const [k, p] of Object.entries(manifest.providers)) claim(k, 'a provider', p.pos);
  // Resource names are the keys of one mapping, so only a clash with the names above is possible.
  for (const k in manifest.resources) {
    const deletedWith = manifest.resources[k].options.deletedWith;
    if (deletedWith && seen.has(deletedWith.root)) error(deletedWith.pos, `deletedWith "${deletedWith.root}" is ${seen.get(deletedWith.root)}, not a resource`, undefined, k);
    if (BUILTIN_ROOTS.has(k)) error(manifest.resources[k].pos, `"${k}" is a reserved name: \${${k}.stack} and the like are built in`, 'name the resource otherwise');
    const other = seen.get(k);
    if (other) error(manifest.resources[k].pos, `"${k}" is declared as both ${other} and a resource`, 'config keys, variables and resources share one namespace');
  }
}

/** What a name that is not a provider resource is, in words: a resource of some type, a variable, a config key. */
function nameKind(manifest: Manifest, name: string): string | undefined {
  if (manifest.resources[name]) return `a ${manifest.resources[name].token} resource`;
  if (Object.hasOwn(manifest.variables, name)) return 'a variable';
  if (Object.hasOwn(manifest.config, name)) return 'a config value';
  return undefined;
}

/** Resolutions already made, per catalog: a large manifest names the same few types thousands of times. */
const tokenCache = new WeakMap<string[], Map<string, string | undefined>>();

function resolveResourceToken(raw: string, known: string[]): string | undefined {
  let cache = tokenCache.get(known);
  if (!cache) tokenCache.set(known, (cache = new Map()));
  if (!cache.has(raw)) cache.set(raw, resolveToken(raw, known));
  return cache.get(raw);
}

/**
 * What to do about a YAML syntax error on `line`, when its cause is a common one: an unquoted
 * `${...}` inside a flow mapping or list, where `{` and `}` are YAML's own punctuation.
 */
function syntaxHint(text: string, line: number): string | undefined {
  const content = text.split('\n')[line - 1] ?? '';
  if (!/[{[][^#'"]*\$\{/.test(content)) return undefined;
  return 'a reference inside { } or [ ] must be quoted, as in { requestedProductUid: "${port.productUid}" }; or write the mapping as an indented block';
}
