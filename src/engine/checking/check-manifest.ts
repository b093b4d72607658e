import type { Diagnostic } from '../../kernel/diagnostics.js';
import { uniqueDiagnostics, warningAt } from '../../kernel/diagnostics.js';
import { UserError } from '../../kernel/errors.js';
import type { ConfigEntry, Manifest, Pos, RefExpr, ResourceDecl } from '../../manifest/ast.js';
import { configPlace, resolveConfig } from '../../manifest/config-resolve.js';
import type { OpenSecret } from '../../manifest/stack-config.js';
import { parseManifest } from '../../manifest/parse.js';
import type { ProjectDecls } from '../../manifest/project.js';
import { closestName } from '../../kernel/did-you-mean.js';
import { noteSecretText } from '../../kernel/secret-mask.js';
import { Unknown, reveal } from '../../kernel/values.js';
import { aliasesReadingResources, declaredAliases, resolveAliases } from '../planning/aliases.js';
import { checkInputs, checkOptionFields, objectKeys } from './check-inputs.js';
import type { CatalogProvider, CatalogResourceType, EngineCatalog } from '../contracts/catalog.js';
import { EvalError, evaluate, type Scope } from '../evaluation/evaluate.js';
import { buildGraph, type ManifestGraph } from '../graph/graph.js';
import { checkableManifest, inFileOrder, withoutEchoes } from './checkable.js';
import { optionPathProblems } from './check-options.js';
import { crossCheck, hasCrossChecks, type CrossCheckInput } from './cross-check.js';
import { getId } from '../evaluation/get.js';
import { idFormatProblem } from '../planning/import.js';
import { checkInstances, type InstanceSettings } from './instance-settings.js';
import { valueProblems } from './messages.js';
import { optionValues } from '../evaluation/option-values.js';
import { Evaluation } from '../evaluation/scope.js';
import type { WithDiagnostics } from '../types.js';

/** A manifest that passed every check made without a remote call, with what those checks found. */
export interface CheckedManifest {
  manifest: Manifest;
  graph: ManifestGraph;
  /** The manifest's warnings (at their place), then the deprecation and usage warnings, each prefixed by its resource's address. */
  warnings: Diagnostic[];
  /** Parsed settings of every provider the manifest uses or configures, by provider name. */
  settings: Map<string, Record<string, unknown>>;
  /** Parsed settings of every provider resource (`pulumi:providers:*`), by its address. */
  instances: Map<string, InstanceSettings>;
  /** Each declared resource's inputs as evaluated here (references to resources Unknown), by address. */
  inputs: Map<string, Record<string, unknown>>;
  /** Whether the inputs are still to be checked against state (CheckOptions.againstState). */
  deferred: boolean;
}

/** Where settings come from besides config. */
export interface CheckOptions {
  /** Environment variables, which override provider settings in config. */
  env: Record<string, string | undefined>;
  /**
   * The stack whose config is read (default `default`, with no flags): its settings file beside
   * the manifest, its `--config KEY=VALUE` flags, and how a sealed value in that file is opened.
   */
  stack?: { name: string; flags?: string[]; open: OpenSecret };
  /**
   * The command reads state and checks against it before its first remote call (see
   * check-inputs-against-state.ts): each resource's inputs are checked there, but for those state
   * shows applied as they are, and so is what the manifest shows against itself. When anything
   * else here has a problem, everything is checked here, so that every problem shows at once.
   */
  againstState?: boolean;
  /** The project file's declarations, for a program kept in another file (see manifest/project.ts). */
  project?: ProjectDecls;
}

/** The settings of each provider and of the tool's own namespace, by name (their schemas' keys). */
function settingNames(catalog: EngineCatalog): Record<string, string[]> {
  const owners = catalog.own ? [...catalog.providers, catalog.own] : catalog.providers;
  return Object.fromEntries(owners.map((p) => [p.name, Object.keys((p.settings as { shape?: Record<string, unknown> }).shape ?? {})]));
}

/**
 * Parses and checks a manifest's text with no remote call, reporting every problem in one pass:
 * structure, options, references, inputs and provider settings, in the order of the file. Only
 * text that cannot be read as YAML at all ends the check there. What a problem leaves unknown (a
 * resource of an unknown type, a variable on a reference cycle) is unknown to the later checks,
 * which report the rest. Every command runs it whole before anything else, so `validate` and a
 * command that calls an API find the same problems, and a manifest with one reaches no API.
 */
export async function checkManifest(text: string, file: string, catalog: EngineCatalog, options: CheckOptions): Promise<WithDiagnostics<CheckedManifest>> {
  // Function tokens are needed only to resolve fn::invoke and its shorthand (fn::interconnect:getLocation).
  const functions = /fn::(invoke|[\w-]+:[^\s:'"]+)/i.test(text) ? (await catalog.functions()).keys() : [];
  const namespaced = settingNames(catalog);
  const { manifest, diagnostics: parseProblems } = parseManifest(text, file, { resources: catalog.resourceTypes.keys(), functions, settings: namespaced }, options.project);
  const stack = options.stack ?? { name: 'default', open: noSealedValues };
  const configProblems = resolveConfig(manifest, {
    stack: stack.name,
    flags: stack.flags,
    env: options.env,
    open: stack.open,
    providers: catalog.providers.map((p) => p.name),
    own: catalog.own?.name,
    settings: namespaced,
  });
  // References to resources are checked against their types' fields while the graph walks them:
  // read from the text alone, so for every command, a plan with nothing to call included.
  const resourceRefs: RefExpr[] = [];
  const { graph, diagnostics: graphProblems } = buildGraph(manifest, (ref) => resourceRefs.push(ref));
  const structure = [
    ...configProblems,
    ...parseProblems,
    ...withoutEchoes(graphProblems, parseProblems, manifest),
    ...unknownFields(manifest, resourceRefs, catalog),
    ...optionPathProblems(manifest, catalog),
    ...aliasesReadingResources(manifest, graph),
  ];
  const checkable = structure.length ? checkableManifest(manifest, graph) : manifest;
  // With a config value missing or mistyped, resources would be checked against what is not
  // meant; provider settings are still checked, so every config problem shows at once.
  const resources = (defer: boolean) => (configProblems.length ? { diagnostics: [], warnings: [], inputs: new Map() } : checkResources(checkable, catalog, defer));
  let checked = await resources(Boolean(options.againstState) && !structure.length);
  const { settings, diagnostics: settingProblems } = await checkSettings(checkable, catalog, options.env);
  const { instances, diagnostics: instanceProblems } = await checkInstances(checkable, catalog.providers, options.env);
  const others = [...structure, ...settingProblems, ...instanceProblems];
  const deferred = Boolean(options.againstState) && !structure.length && !others.length && !checked.diagnostics.length;
  // A problem elsewhere: the inputs are checked now too, so that every problem shows at once.
  if (options.againstState && !deferred && !structure.length) checked = await resources(false);
  const problems = [...others, ...checked.diagnostics];
  if (problems.length) return { diagnostics: inFileOrder(uniqueDiagnostics(problems)) };
  return { value: { manifest, graph, warnings: [...manifest.warnings, ...checked.warnings], settings, instances, inputs: checked.inputs, deferred }, diagnostics: [] };
}

/** Where the caller gives no key to open sealed config values with: one found is refused. */
const noSealedValues: OpenSecret = () => {
  throw new UserError('a sealed config value cannot be opened: no key was given to open it with');
};

/**
 * Checks every resource (its inputs, its options written as expressions, its ids and aliases),
 * the variables and the outputs as far as they are known without any remote call: lookups and
 * other resources' outputs are Unknown here, and problems in those parts are left to the plan.
 */
export async function checkResources(
  manifest: Manifest,
  catalog: EngineCatalog,
  deferInputs = false,
): Promise<{ diagnostics: Diagnostic[]; warnings: Diagnostic[]; inputs: Map<string, Record<string, unknown>> }> {
  const diagnostics: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const functions = manifest.invoked.length ? await catalog.functions() : undefined;
  const scope = new Evaluation(manifest, undefined, () => new Unknown(), functions).scope();
  const valid = new Map<string, Record<string, unknown>>();
  for (const decl of Object.values(manifest.resources)) {
    const checked = await checkResource(decl, catalog.resourceTypes.get(decl.token)!, scope, manifest.file, deferInputs);
    diagnostics.push(...checked.diagnostics);
    warnings.push(...checked.warnings);
    if (checked.desired) valid.set(decl.address, checked.desired);
  }
  // What the manifest alone shows against itself (two VXCs on one VLAN of a port, say); what
  // state adds is checked before planning (see crossCheckStack).
  if (!deferInputs && hasCrossChecks(manifest, catalog.resourceTypes)) diagnostics.push(...(await crossCheck({ manifest, types: catalog.resourceTypes, desired: valid })));
  // Aliases as far as config and variables give them, and against the resources declared.
  diagnostics.push(...(await resolveAliases(manifest, scope, 'wait')), ...declaredAliases(manifest));
  // Variables and outputs that no resource uses are checked as well: their mistakes too are
  // found before any remote call.
  for (const expr of [...Object.values(manifest.variables), ...Object.values(manifest.outputs)]) {
    try {
      await evaluate(expr, scope);
    } catch (err) {
      diagnostics.push(evalProblem(err, manifest.file));
    }
  }
  return { diagnostics: uniqueDiagnostics(diagnostics), warnings, inputs: valid };
}

/**
 * One resource's checks that need no call, with the plan's messages: a `get:` resource's id; the
 * options that name its type's fields, its import id and its options written as expressions; and
 * its inputs, which are returned (`desired`) when they pass, with the type's warnings about them
 * (or, `deferInputs`, as evaluated, to be checked against state: see resourceInputProblems).
 */
async function checkResource(
  decl: ResourceDecl,
  type: CatalogResourceType,
  scope: Scope,
  file: string,
  deferInputs: boolean,
): Promise<{ diagnostics: Diagnostic[]; warnings: Diagnostic[]; desired?: Record<string, unknown> }> {
  const at = (problem: { summary: string; detail?: string; pos?: Pos }): Diagnostic => ({ severity: 'error', ...problem, address: decl.address, pos: { file, ...(problem.pos ?? decl.pos) } });
  if (decl.get) {
    const id = await getId(decl, type, scope, 'wait');
    return { diagnostics: 'problem' in id ? [at(id.problem)] : [], warnings: [] };
  }
  const diagnostics = checkOptionFields(decl, type, file);
  const malformed = decl.options.import === undefined ? undefined : idFormatProblem(type, decl.options.import);
  if (malformed) diagnostics.push(at({ pos: decl.options.positions?.import, ...malformed }));
  try {
    await optionValues(decl.address, decl.options, scope, 'wait');
  } catch (err) {
    diagnostics.push(evalProblem(err, file, decl.address));
  }
  try {
    const desired = (await evaluate(decl.properties, scope)) as Record<string, unknown>;
    if (deferInputs) return { diagnostics, warnings: [], desired };
    const problems = resourceInputProblems(decl, type, desired, file);
    if (problems.length) return { diagnostics: [...diagnostics, ...problems], warnings: [] };
    return { diagnostics, warnings: (type.notes?.desired?.(desired) ?? []).map((w) => warningAt(undefined, `${decl.address}: ${w}`)), desired };
  } catch (err) {
    return { diagnostics: [...diagnostics, evalProblem(err, file, decl.address)], warnings: [] };
  }
}

/** A resource's inputs checked against its type's schema, each problem at its position. */
export function resourceInputProblems(decl: ResourceDecl, type: CatalogResourceType, desired: Record<string, unknown>, file: string): Diagnostic[] {
  return checkInputs(type.inputs, desired, decl.properties, { file, address: decl.address, what: type.token, secretPaths: type.secrets?.paths });
}

/**
 * The cross-checks of every resource against the rest of the stack as state records it, before
 * planning: a VLAN a recorded VXC holds, a prefix list a recorded MCR has (read with `lookup` when
 * neither manifest nor state names it). Inputs are those checkManifest checked (`inputs`), else
 * evaluated as for the checks above, references to resources unknown; none is made when no
 * declared type has a cross-check.
 */
export async function crossCheckStack(
  manifest: Manifest,
  catalog: EngineCatalog,
  recorded: NonNullable<CrossCheckInput['recorded']>,
  lookup?: CrossCheckInput['lookup'],
  inputs?: Map<string, Record<string, unknown>>,
): Promise<Diagnostic[]> {
  if (!hasCrossChecks(manifest, catalog.resourceTypes)) return [];
  if (inputs) return crossCheck({ manifest, types: catalog.resourceTypes, desired: inputs, recorded, lookup });
  const functions = manifest.invoked.length ? await catalog.functions() : undefined;
  const scope = new Evaluation(manifest, undefined, () => new Unknown(), functions).scope();
  const desired = new Map<string, Record<string, unknown>>();
  for (const decl of Object.values(manifest.resources)) {
    if (decl.get) continue;
    try {
      desired.set(decl.address, (await evaluate(decl.properties, scope)) as Record<string, unknown>);
    } catch (err) {
      // Its own problem is reported by its own check; here it is only not known.
      if (!(err instanceof EvalError)) throw err;
    }
  }
  return crossCheck({ manifest, types: catalog.resourceTypes, desired, recorded, lookup });
}

/** An evaluation error as a diagnostic at its position; anything else is not a manifest's problem and is thrown on. */
function evalProblem(err: unknown, file: string, address?: string): Diagnostic {
  if (!(err instanceof EvalError)) throw err;
  return { severity: 'error', summary: err.message, detail: err.detail, ...(address === undefined ? {} : { address }), pos: { file, ...err.pos } };
}

/** References to a field a resource's type does not have (`${port.nonexistent}`). */
export function unknownFields(manifest: Manifest, refs: RefExpr[], catalog: EngineCatalog): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const fieldsOf = new Map<string, string[]>();
  for (const ref of refs) {
    const target = manifest.resources[ref.root];
    const step = ref.path[0];
    if (!target || typeof step !== 'string') continue;
    const type = catalog.resourceTypes.get(target.token)!;
    let fields = fieldsOf.get(type.token);
    if (!fields) fieldsOf.set(type.token, (fields = [...new Set(['id', ...objectKeys(type.outputs), ...objectKeys(type.inputs), 'urn'])]));
    if (fields.length > 1 && !fields.includes(step)) {
      const hint = closestName(step, fields);
      diagnostics.push({
        severity: 'error',
        summary: `\${${ref.text}}: ${ref.root} (${type.token}) has no field "${step}"`,
        detail: `${hint ? `did you mean "${hint}"? ` : ''}fields: ${fields.join(', ')}`,
        pos: { file: manifest.file, ...ref.pos },
      });
    }
  }
  return diagnostics;
}

/**
 * Parses the settings of each provider the manifest uses or configures, from config and env,
 * and notes secret settings' text for masking. Problems are positioned diagnostics.
 */
export async function checkSettings(
  manifest: Manifest,
  catalog: EngineCatalog,
  env: Record<string, string | undefined>,
): Promise<{ settings: Map<string, Record<string, unknown>>; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const settings = new Map<string, Record<string, unknown>>();
  const scope = new Evaluation(manifest, undefined, () => new Unknown()).scope();
  const used = usedProviders(manifest);
  for (const provider of catalog.own ? [...catalog.providers, catalog.own] : catalog.providers) {
    const { raw, positions } = await configuredSettings(manifest, provider, env, scope);
    // Neither used nor configured: its defaults are worked out if it is ever connected (a
    // resource of it left in state), and its schema is not built for nothing.
    if (!used.has(provider.name) && !Object.keys(raw).length) continue;
    diagnostics.push(...unknownSettings(manifest, provider, raw, positions));
    const parsed = provider.settings.safeParse(raw);
    if (!parsed.success) {
      for (const problem of valueProblems(provider.settings, parsed.error.issues, raw, 'setting', (name) => `config ${provider.name}:${name}`)) {
        const name = problem.name.slice(`config ${provider.name}:`.length).split(/[.[]/)[0];
        diagnostics.push({ severity: 'error', summary: problem.summary, detail: problem.detail, ...configPlace(manifest, positions[name]) });
      }
      continue;
    }
    const value = parsed.data as Record<string, unknown>;
    if (used.has(provider.name)) {
      const first = Object.values(positions)[0];
      for (const problem of provider.check?.(value) ?? []) diagnostics.push({ severity: 'error', summary: problem, ...configPlace(manifest, first) });
    }
    for (const secret of provider.secretSettings) {
      const text = value[secret];
      if (typeof text === 'string') noteSecretText(text);
    }
    settings.set(provider.name, value);
  }
  diagnostics.push(...unknownProviders(manifest, catalog.providers, catalog.own?.name));
  return { settings, diagnostics };
}

/** One provider's settings as config writes them (with each one's position), then as env overrides them. */
async function configuredSettings(manifest: Manifest, provider: CatalogProvider, env: Record<string, string | undefined>, scope: Scope) {
  const raw: Record<string, unknown> = {};
  const positions: Record<string, ConfigEntry> = {};
  for (const [key, entry] of Object.entries(manifest.config)) {
    const [ns, name] = key.split(':');
    if (ns !== provider.name || !name) continue;
    raw[name] = reveal(await evaluate(entry.value, scope));
    positions[name] = entry;
  }
  // A provider's own variables win over config, except over --config.
  for (const [variable, name] of Object.entries(provider.envVars)) if (env[variable] !== undefined && env[variable] !== '' && positions[name]?.source !== 'flag') raw[name] = env[variable];
  return { raw, positions };
}

/**
 * Settings written in config that the provider does not have, each dropped from `raw`. A
 * misspelt setting (cancelAtEndofTerm) would otherwise be dropped without a word, and the
 * product billed on.
 */
function unknownSettings(manifest: Manifest, provider: CatalogProvider, raw: Record<string, unknown>, positions: Record<string, ConfigEntry>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const known = objectKeys(provider.settings);
  for (const name of Object.keys(positions)) {
    if (!known.length || known.includes(name)) continue;
    const hint = closestName(name, known);
    diagnostics.push({
      severity: 'error',
      summary: `config ${provider.name}:${name}: unknown setting`,
      detail: `${hint ? `did you mean ${provider.name}:${hint}? ` : ''}settings: ${known.join(', ')}`,
      ...configPlace(manifest, positions[name]),
    });
    delete raw[name];
  }
  return diagnostics;
}

/** Config keys namespaced by a provider there is not. */
function unknownProviders(manifest: Manifest, providers: readonly CatalogProvider[], own: string | undefined): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const key of Object.keys(manifest.config)) {
    const ns = key.split(':')[0];
    if (key.includes(':') && ns !== own && !providers.some((p) => p.name === ns)) {
      diagnostics.push({
        severity: 'error',
        summary: `config ${key}: unknown provider "${ns}"`,
        detail: `providers: ${providers.map((p) => p.name).join(', ')}`,
        ...configPlace(manifest, manifest.config[key]),
      });
    }
  }
  return diagnostics;
}

/** Providers whose default connection the manifest's resources or functions use (a token's first segment). */
export function usedProviders(manifest: Manifest): Set<string> {
  const tokens = new Set(manifest.invoked);
  // A resource of a provider resource does not use the default connection.
  for (const address in manifest.resources) if (!manifest.resources[address].provider) tokens.add(manifest.resources[address].token);
  return new Set([...tokens].map((token) => token.split(':')[0]));
}
