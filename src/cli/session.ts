import { isAscii } from 'node:buffer';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Diagnostic } from '../diagnostics.js';
import { DiagnosticsError, uniqueDiagnostics } from '../diagnostics.js';
import { checkInputs, objectKeys } from '../engine/check-inputs.js';
import { EvalError, evaluate } from '../engine/evaluate.js';
import { buildGraph, type ManifestGraph } from '../engine/graph/graph.js';
import { Evaluation } from '../engine/scope.js';
import type { Connection, EngineDeps } from '../engine/types.js';
import { UserError } from '../errors.js';
import type { Manifest, RefExpr } from '../manifest/ast.js';
import { parseManifest } from '../manifest/parse.js';
import { closestName } from '../manifest/tokens.js';
import type { LookupFunction } from '../lookups/function.js';
import { providerFor, providers, readsMode, resourceTypes, typeFor } from '../resource-registry.js';
import type { Sandbox } from '../sandbox/server.js';
import { maskSecrets, noteSecretText } from '../secret-mask.js';
import type { StateStore } from '../state/store.js';
import { Unknown, reveal } from '../values.js';
import { adoptLegacyState, manifestProject, openStore } from './state-store.js';

/** Flags every command shares. */
export interface GlobalOptions {
  file?: string;
  stack: string;
  state?: string;
  logLevel?: string;
  logFile?: string;
  color?: boolean;
}

/** A loaded manifest with its graph, plus the runtime to plan and apply it. */
export interface Session {
  manifest: Manifest;
  graph: ManifestGraph;
  deps: EngineDeps;
  store: StateStore;
  /** The store of another stack at the same location. */
  storeFor(stack: string): StateStore;
  /**
   * For a session opened without checking resources: checks them now if planning against this
   * state would call a remote API first (throws DiagnosticsError on problems).
   */
  checkBeforePlan(state: { resources: Record<string, unknown>; pending: unknown[] }, refresh: boolean): Promise<void>;
  close(): Promise<void>;
}

/** A pino logger (silent unless --log-level) with secret paths redacted and every known secret value masked. */
export function makeLogger(opts: GlobalOptions): Logger {
  const level = opts.logLevel ?? process.env.PLUMB_LOG_LEVEL ?? 'silent';
  if (level === 'silent') return silentLogger();
  if (!['trace', 'debug', 'info', 'warn', 'error', 'fatal'].includes(level)) throw new UserError(`log level ${level}: expected trace, debug, info, warn, error, fatal or silent`);
  // Loaded here, not at start-up: most runs log nothing, and a command's start-up time counts.
  const pino = createRequire(import.meta.url)('pino') as typeof import('pino').default;
  const destination = opts.logFile ? pino.destination({ dest: opts.logFile, sync: true, mode: 0o600 }) : pino.destination(2);
  // Each log line, message and fields alike, passes the secret mask on its way out.
  const masked = { write: (line: string) => destination.write(maskSecrets(line)) };
  return pino({ level, redact: { paths: ['*.secretKey', '*.privateKey', '*.apiSecret', '*.password', '*.key', '*.serviceKey', 'secretKey', 'authorization'], censor: '[secret]' } }, masked);
}

/** A logger that drops everything (what pino does at level silent), without loading pino. */
function silentLogger(): Logger {
  const noop = () => {};
  const log = { level: 'silent', trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, silent: noop, flush: noop, isLevelEnabled: () => false, child: () => log };
  return log as unknown as Logger;
}

/** The lookup functions, loaded only for a manifest that calls one (they are most of the code to load). */
async function lookupFunctions(): Promise<Map<string, LookupFunction>> {
  return (await import('../function-registry.js')).functions;
}

/** Finds the manifest path: the argument, -f, or plumb.yaml in the current folder. */
export function manifestPath(arg: string | undefined, opts: GlobalOptions): string {
  const file = arg ?? opts.file ?? 'plumb.yaml';
  if (!existsSync(file)) throw new UserError(`manifest ${file} not found`, 'pass the manifest path as the first argument or with -f');
  if (statSync(file).isDirectory()) throw new UserError(`${file} is a folder, not a manifest`, `pass the manifest file, e.g. ${join(file, 'plumb.yaml')}`);
  return file;
}

/** How much of a manifest `loadManifest` checks. */
export interface LoadOptions {
  /**
   * Check every resource's inputs (default true). Planning checks them too, so plan and apply
   * leave it to the plan when planning makes no remote call before its own check (see
   * `checksBeforeRemoteCalls`).
   */
  resources?: boolean;
}

/** Parses and checks a manifest (no remote call); throws DiagnosticsError listing every problem. */
export async function loadManifest(
  file: string,
  options: LoadOptions = {},
): Promise<{ manifest: Manifest; graph: ManifestGraph; warnings: string[]; settings: Map<string, Record<string, unknown>> }> {
  const text = readText(file);
  // Function tokens are needed only to resolve fn::invoke.
  const functions = /fn::invoke/i.test(text) ? (await lookupFunctions()).keys() : [];
  const { manifest, diagnostics } = parseManifest(text, file, { resources: resourceTypes.keys(), functions });
  if (diagnostics.length) throw new DiagnosticsError(diagnostics);
  // References to resources are checked against their types' fields while the graph walks them:
  // read from the text alone, so for every command, a plan with nothing to call included.
  const resourceRefs: RefExpr[] = [];
  const { graph, diagnostics: graphProblems } = buildGraph(manifest, (ref) => resourceRefs.push(ref));
  graphProblems.push(...unknownFields(manifest, resourceRefs));
  if (graphProblems.length) throw new DiagnosticsError(graphProblems);
  const checked = options.resources === false ? { diagnostics: [], warnings: [] } : await checkResources(manifest);
  const { settings, diagnostics: settingProblems } = await checkSettings(manifest, process.env);
  const problems = [...checked.diagnostics, ...settingProblems];
  if (problems.length) throw new DiagnosticsError(problems);
  return { manifest, graph, warnings: checked.warnings, settings };
}

/** A file's text; one that is all ASCII (most manifests) is taken without a UTF-8 decoding pass. */
function readText(file: string): string {
  const bytes = readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * Checks every resource's inputs as far as they are known without any remote call: lookups and
 * other resources' outputs are Unknown here, and problems in those parts are left to the plan.
 */
export async function checkResources(manifest: Manifest): Promise<{ diagnostics: Diagnostic[]; warnings: string[] }> {
  const diagnostics: Diagnostic[] = [];
  const warnings: string[] = [];
  const functions = manifest.invoked.length ? await lookupFunctions() : undefined;
  const evaluation = new Evaluation(manifest, undefined, () => new Unknown(), functions);
  const scope = evaluation.scope();
  for (const decl of Object.values(manifest.resources)) {
    const type = resourceTypes.get(decl.token)!;
    try {
      const desired = await evaluate(decl.properties, scope);
      const problems = checkInputs(type.inputs, desired, decl.properties, { file: manifest.file, address: decl.address, what: type.token, secretPaths: type.secretPaths });
      diagnostics.push(...problems);
      if (!problems.length) warnings.push(...(type.warnings?.(desired as never) ?? []).map((w) => `${decl.address}: ${w}`));
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      diagnostics.push({ severity: 'error', summary: err.message, detail: err.detail, address: decl.address, pos: { file: manifest.file, ...err.pos } });
    }
  }
  // Variables and outputs that no resource uses are checked as well: their mistakes too are
  // found before any remote call.
  for (const expr of [...Object.values(manifest.variables), ...Object.values(manifest.outputs)]) {
    try {
      await evaluate(expr, scope);
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      diagnostics.push({ severity: 'error', summary: err.message, detail: err.detail, pos: { file: manifest.file, ...err.pos } });
    }
  }
  return { diagnostics: uniqueDiagnostics(diagnostics), warnings };
}

/** References to a field a resource's type does not have (`${port.nonexistent}`). */
function unknownFields(manifest: Manifest, refs: RefExpr[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const fieldsOf = new Map<string, string[]>();
  for (const ref of refs) {
    const target = manifest.resources[ref.root];
    const step = ref.path[0];
    if (!target || typeof step !== 'string') continue;
    const type = resourceTypes.get(target.token)!;
    let fields = fieldsOf.get(type.token);
    if (!fields) fieldsOf.set(type.token, (fields = [...new Set(['id', ...objectKeys(type.outputs), ...objectKeys(type.inputs)])]));
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
 * Whether planning this manifest against this state would call a remote API before it has
 * evaluated and checked every resource: refreshing recorded objects, settling interrupted
 * operations, lookups and `options.import` reads all do. Then the inputs are checked first, so
 * an invalid manifest never reaches an API; otherwise the plan's own check is the only one.
 */
function checksBeforeRemoteCalls(manifest: Manifest, state: { resources: Record<string, unknown>; pending: unknown[] }, refresh: boolean): boolean {
  if (state.pending.length) return true;
  if (refresh && Object.keys(state.resources).length) return true;
  for (const address in manifest.resources) if (manifest.resources[address].options.import) return true;
  return manifest.invoked.length > 0;
}

/** Parses each used provider's settings from config and env; problems are positioned diagnostics. */
async function checkSettings(manifest: Manifest, env: Record<string, string | undefined>): Promise<{ settings: Map<string, Record<string, unknown>>; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const settings = new Map<string, Record<string, unknown>>();
  const evaluation = new Evaluation(manifest, undefined, () => new Unknown());
  const used = usedProviders(manifest);
  for (const provider of providers) {
    const raw: Record<string, unknown> = {};
    const positions: Record<string, { line: number; column: number }> = {};
    for (const [key, entry] of Object.entries(manifest.config)) {
      const [ns, name] = key.split(':');
      if (ns !== provider.name || !name) continue;
      raw[name] = reveal(await evaluate(entry.value, evaluation.scope()));
      positions[name] = entry.pos;
    }
    for (const [variable, name] of Object.entries(provider.envVars)) if (env[variable] !== undefined && env[variable] !== '') raw[name] = env[variable];
    // Neither used nor configured: its defaults are worked out if it is ever connected (a
    // resource of it left in state), and its schema is not built for nothing.
    if (!used.has(provider.name) && !Object.keys(raw).length) continue;
    // A misspelt setting (cancelAtEndofTerm) would be dropped without a word, and the product
    // billed on: every name written in config must be one the provider has.
    const known = objectKeys(provider.settings);
    for (const name of Object.keys(positions)) {
      if (known.length && !known.includes(name)) {
        const hint = closestName(name, known);
        diagnostics.push({
          severity: 'error',
          summary: `config ${provider.name}:${name}: unknown setting`,
          detail: `${hint ? `did you mean ${provider.name}:${hint}? ` : ''}settings: ${known.join(', ')}`,
          pos: { file: manifest.file, ...positions[name] },
        });
        delete raw[name];
      }
    }
    const parsed = provider.settings.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const name = String(issue.path[0] ?? '');
        const pos = positions[name] ?? { line: 1, column: 1 };
        diagnostics.push({ severity: 'error', summary: `config ${provider.name}:${name}: ${issue.message}`, pos: { file: manifest.file, ...pos } });
      }
      continue;
    }
    const value = parsed.data as Record<string, unknown>;
    if (used.has(provider.name)) {
      for (const problem of provider.check?.(value) ?? []) {
        const name = Object.keys(positions)[0];
        diagnostics.push({ severity: 'error', summary: problem, pos: { file: manifest.file, ...(name ? positions[name] : { line: 1, column: 1 }) } });
      }
    }
    for (const secret of provider.secretSettings) {
      const text = value[secret];
      if (typeof text === 'string') noteSecretText(text);
    }
    settings.set(provider.name, value);
  }
  for (const key of Object.keys(manifest.config)) {
    const ns = key.split(':')[0];
    if (key.includes(':') && !providers.some((p) => p.name === ns)) {
      diagnostics.push({ severity: 'error', summary: `config ${key}: unknown provider "${ns}"`, detail: `providers: ${providers.map((p) => p.name).join(', ')}`, pos: { file: manifest.file, ...manifest.config[key].pos } });
    }
  }
  return { settings, diagnostics };
}

/** Providers whose resources or functions the manifest uses. */
function usedProviders(manifest: Manifest): Set<string> {
  const tokens = new Set(manifest.invoked);
  for (const address in manifest.resources) tokens.add(manifest.resources[address].token);
  return new Set([...tokens].map((token) => token.split(':')[0]));
}

/** Builds the runtime for a loaded manifest: connections (sandbox on demand), logger and store. */
export async function openSession(file: string, opts: GlobalOptions, load: LoadOptions = {}): Promise<Session> {
  const { manifest, graph, settings } = await loadManifest(file, load);
  const log = makeLogger(opts);
  const runtime = sandboxRuntime(join(manifest.dir, '.plumb', 'sandbox'));
  const connections = new Map<string, Promise<Connection>>();
  const functions = manifest.invoked.length ? await lookupFunctions() : new Map<string, LookupFunction>();
  const project = manifestProject(manifest.file, manifest.name);
  const reads = readsMode(process.env);
  const deps: EngineDeps = {
    project,
    stack: opts.stack,
    log,
    workDir: manifest.dir,
    resourceType: (token) => typeFor(resourceTypes.get(token), reads),
    lookup: (token) => functions.get(token),
    connect(name) {
      let connection = connections.get(name);
      if (!connection) {
        connection = connectProvider(name, settings.get(name) ?? defaultSettings(name), runtime.url, log);
        connections.set(name, connection);
      }
      return connection;
    },
  };
  const store = withCrashHook(openStore(opts, manifest.dir, project));
  try {
    const note = await adoptLegacyState(store, { file: manifest.file, addresses: Object.keys(manifest.resources) }, opts.stack, lockInfo('state claim'));
    if (note) process.stderr.write(`${note}\n`);
  } catch (err) {
    await store.close();
    throw err;
  }
  return {
    manifest,
    graph,
    deps,
    store,
    storeFor: (stack) => openStore({ ...opts, stack }, manifest.dir, project),
    async checkBeforePlan(state, refresh) {
      if (load.resources !== false || !checksBeforeRemoteCalls(manifest, state, refresh)) return;
      const { diagnostics } = await checkResources(manifest);
      if (diagnostics.length) throw new DiagnosticsError(diagnostics);
    },
    async close() {
      await store.close();
      await runtime.close();
    },
  };
}

/** The settings of a provider the manifest neither uses nor configures: its defaults. */
function defaultSettings(name: string): Record<string, unknown> {
  return (providerFor(`${name}:`)?.settings.parse({}) ?? {}) as Record<string, unknown>;
}

/** Connects one provider by name, refusing settings that fail the provider's own checks. */
export async function connectProvider(name: string, settings: Record<string, unknown>, sandboxUrl: () => Promise<string>, log: Logger): Promise<Connection> {
  const provider = providerFor(`${name}:`);
  if (!provider) throw new UserError(`unknown provider ${name}`);
  const problems = provider.check?.(settings) ?? [];
  if (problems.length) throw new UserError(problems.join('\n'));
  const client = await provider.connect(settings, { sandboxUrl, log, env: process.env });
  return { client, settings, waitTimeMs: provider.waitTimeMs?.(settings) };
}

/** Starts the built-in sandbox on first use (or uses PLUMB_SANDBOX_URL). */
export function sandboxRuntime(dataDir: string): { url: () => Promise<string>; close: () => Promise<void> } {
  let started: Promise<Sandbox> | undefined;
  return {
    url: async () => {
      if (process.env.PLUMB_SANDBOX_URL) return process.env.PLUMB_SANDBOX_URL.replace(/\/$/, '');
      // Loaded on first use: commands that never call a provider never pay for the simulated APIs.
      started ??= Promise.all([import('../sandbox/server.js'), import('../sandbox/settings.js')]).then(([{ startSandbox }, { settingsFrom }]) =>
        startSandbox({ dataDir, ...settingsFrom(process.env) }),
      );
      return (await started).url;
    },
    close: async () => {
      if (started) await (await started).close();
    },
  };
}

/**
 * Test hook: with PLUMB_TEST_CRASH_AFTER_RECORDS=N the process kills itself (SIGKILL, no
 * cleanup) once N journal records are durable — how crash safety is tested without sleeps.
 */
function withCrashHook(store: StateStore): StateStore {
  const limit = process.env.PLUMB_TEST_CRASH_AFTER_RECORDS;
  if (limit === undefined || limit === '') return store;
  let count = 0;
  const record = store.record.bind(store);
  store.record = async (entry) => {
    if (count >= Number(limit)) process.kill(process.pid, 'SIGKILL');
    await record(entry);
    count++;
    if (count >= Number(limit)) process.kill(process.pid, 'SIGKILL');
  };
  return store;
}

/** Lock holder details for this process. */
export function lockInfo(command: string) {
  return { pid: process.pid, host: hostname(), time: new Date().toISOString(), command };
}

/** The folder a manifest lives in. */
export function manifestDir(file: string): string {
  return dirname(resolve(file));
}
