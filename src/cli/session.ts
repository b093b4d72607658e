import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { DiagnosticsError } from '../kernel/diagnostics.js';
import { checkManifest, crossCheckStack, type CheckedManifest } from '../engine/checking/check-manifest.js';
import { crossCheck, hasCrossChecks } from '../engine/checking/cross-check.js';
import { checkInputsAgainstState } from '../engine/checking/check-inputs-against-state.js';
import { inFileOrder } from '../engine/checking/checkable.js';
import type { EngineCatalog } from '../engine/contracts/catalog.js';
import { strict } from '../engine/contracts/strict.js';
import type { RateRuntime, RetryNotice } from '../engine/contracts/provider.js';
import type { ManifestGraph } from '../engine/graph/graph.js';
import type { Connection, EngineDeps, EngineEvent } from '../engine/types.js';
import { UserError } from '../kernel/errors.js';
import type { Manifest } from '../manifest/ast.js';
import { decodeUtf8 } from '../manifest/yaml-source.js';
import { findProgram, projectFor } from '../manifest/project.js';
import type { LookupFunction } from '../engine/contracts/lookup.js';
import type { ResourceType } from '../engine/contracts/resource-type.js';
import { loadFunctions, loadResourceTypes, providerFor, providers, providersNamedIn, readsMode, typeFor } from './catalog.js';
import type { Sandbox } from '@plumb/sandbox';
import { maskSecrets } from '../kernel/secret-mask.js';
import { keepGitOutOfWorld } from '../state/git-ignore.js';
import type { StateStore } from '../state/store.js';
import { sandboxSettings } from './sandbox.js';
import { drawSandboxLine, type SandboxLine } from './sandbox-line.js';
import { readStackOutputs } from './stack-outputs.js';
import { manifestProject, openStore, stateCodec, stateLocation } from './state-store.js';
import { rateRuntimes } from './rate-ledger.js';
import { ownSettings } from './own-settings.js';

/** Flags every command shares. */
export interface GlobalOptions {
  file?: string;
  stack: string;
  state?: string;
  logLevel?: string;
  logFile?: string;
  /** `json` (pino's lines) or `text` (one readable line per entry). */
  logFormat?: string;
  color?: boolean;
  /** `--config KEY=VALUE` flags. */
  config?: string[];
}

/** A loaded manifest with its graph, plus the runtime to plan and apply it. */
export interface Session {
  manifest: Manifest;
  graph: ManifestGraph;
  deps: EngineDeps;
  store: StateStore;
  /** The store of another stack at the same location. */
  storeFor(stack: string): StateStore;
  /** plumb's own config values (`plumb:` keys) for this stack, as checked. */
  own: Record<string, unknown>;
  /**
   * Unless destroying, checks each resource against the rest of the stack as this state records
   * it (throws DiagnosticsError on problems); the manifest's own checks ran when it was opened.
   */
  checkBeforePlan(state: { resources: Record<string, unknown> }, destroy?: boolean): Promise<void>;
  /** The providers the built-in sandbox serves in this command (said once on stderr when the session opened). */
  sandboxServed(): string[];
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
  const format = opts.logFormat ?? process.env.PLUMB_LOG_FORMAT ?? (!opts.logFile && process.stderr.isTTY ? 'text' : 'json');
  if (format !== 'json' && format !== 'text') throw new UserError(`log format ${format}: expected json or text`);
  // Each log line, message and fields alike, passes the secret mask on its way out.
  const masked = { write: (line: string) => destination.write(maskSecrets(format === 'text' ? textLine(line) : line)) };
  return pino({ level, redact: { paths: ['*.secretKey', '*.privateKey', '*.apiSecret', '*.password', '*.key', '*.serviceKey', 'secretKey', 'authorization'], censor: '[secret]' } }, masked);
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** One pino JSON line as a line to read: time, level, message, then its fields as key=value. */
export function textLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { time, level, msg, pid: _pid, hostname: _host, ...fields } = entry;
  const at = typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : '';
  const rest = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`);
  return `${[at, (LEVEL_NAMES[level as number] ?? String(level)).padEnd(5), msg ?? '', ...rest].filter((part) => part !== '').join(' ')}\n`;
}

/** A logger that drops everything (what pino does at level silent), without loading pino. */
function silentLogger(): Logger {
  const noop = () => {};
  const log = { level: 'silent', trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, silent: noop, flush: noop, isLevelEnabled: () => false, child: () => log };
  return log as unknown as Logger;
}

/**
 * Finds the program: the argument, -f, or the current folder's plumb.yaml or Pulumi project (a
 * Pulumi.yaml, with its program in Main.yaml or in itself). See manifest/project.ts.
 */
export function manifestPath(arg: string | undefined, opts: Pick<GlobalOptions, 'file'>): string {
  return findProgram(arg ?? opts.file).program;
}

/** For which stack `loadManifest` checks a manifest. */
export interface LoadOptions {
  /** The stack whose config is read (default `default`), its `--config` flags, and where its state (and key) is. */
  stack?: { name: string; config?: string[]; state?: string };
  /** The command checks against state before planning (see CheckOptions.againstState). */
  againstState?: boolean;
}

/** The catalog as the engine's checks see it, with these resource types; lookup functions are loaded only when asked for. */
function catalogOf(resourceTypes: ReadonlyMap<string, ResourceType>): EngineCatalog {
  return { resourceTypes, providers, own: ownSettings, functions: loadFunctions };
}

/** Parses and checks a manifest (no remote call); throws DiagnosticsError listing every problem. */
export async function loadManifest(file: string, options: LoadOptions = {}): Promise<CheckedManifest> {
  return (await checkedManifest(file, options)).checked;
}

/** A checked manifest, with the resource types it was checked against. */
async function checkedManifest(file: string, options: LoadOptions): Promise<{ checked: CheckedManifest; types: Map<string, ResourceType> }> {
  const { name, config, state } = options.stack ?? { name: 'default' };
  // The stack file's sealed values are opened with the state location's key, found when first needed.
  let codec: ReturnType<typeof stateCodec> | undefined;
  const open = (sealed: string, where: string) => (codec ??= stateCodec({ stack: name, state }, manifestDir(file))).decode({ $secret: sealed }, where);
  const text = readText(file);
  const project = projectFor(file);
  const check = async (types: ReadonlyMap<string, ResourceType>) =>
    checkManifest(text, file, catalogOf(types), { env: process.env, stack: { name, flags: config, open }, againstState: options.againstState, project });
  // Checked against the types of the providers its text names, which hold every type it can
  // resolve; one with problems is checked again against every type, so what it is told (a
  // misspelt provider's "did you mean" among them) never depends on what else it names.
  let types = await loadResourceTypes(providersNamedIn(text));
  let { value, diagnostics } = await check(types);
  if (!value) {
    const every = await loadResourceTypes();
    if (every.size > types.size) ({ value, diagnostics } = await check((types = every)));
  }
  if (!value) throw new DiagnosticsError(diagnostics);
  return { checked: value, types };
}

/** A manifest's text; bytes that are not UTF-8 are refused at their line and column. */
function readText(file: string): string {
  const { text, diagnostics } = decodeUtf8(readFileSync(file), file);
  if (diagnostics.length) throw new DiagnosticsError(diagnostics);
  return text;
}

/**
 * Builds the runtime for a manifest checked whole first, as `validate` checks it: connections
 * (sandbox on demand), logger and store. Nothing remote is reached before the check passes.
 * `planning`: the command calls checkBeforePlan, whose check against state also covers what the
 * manifest shows against itself.
 */
export async function openSession(file: string, opts: GlobalOptions, planning = false): Promise<Session> {
  const stack = { name: opts.stack, config: opts.config, state: opts.state };
  const { checked, types: resourceTypes } = await checkedManifest(file, { stack, againstState: planning });
  const { manifest, graph, settings, instances, inputs, deferred } = checked;
  const catalog = catalogOf(resourceTypes);
  const log = makeLogger(opts);
  // State and sandbox data are kept at the project's root: beside Pulumi.yaml, wherever the program is.
  const home = manifestDir(manifest.file);
  const runtime = sandboxRuntime(join(home, '.plumb', 'sandbox'));
  const line = drawSandboxLine(runtime.url, checked); // before the store is opened or anything called: a connection that cannot be used stops the command here
  const notify = (event: EngineEvent) => deps.notify?.(event);
  const connect = connector({ settings, instances, line, log, rates: rateRuntimes(stateLocation(opts, home), notify), notify });
  const functions = manifest.invoked.length ? await loadFunctions() : new Map<string, LookupFunction>();
  const project = manifestProject(manifest.file, manifest.name);
  const reads = readsMode(process.env);
  const deps: EngineDeps = {
    project,
    stack: opts.stack,
    log,
    workDir: manifest.dir,
    resourceType: (token) => typeFor(resourceTypes.get(token), reads),
    stackOutputs: (stack) => readStackOutputs(stack, opts, home, project),
    lookup: (token) => functions.get(token),
    connect,
  };
  const store = sessionStore(opts, home, project, resourceTypes);
  return {
    manifest,
    graph,
    deps,
    store,
    storeFor: (stack) => withRecordedTypes(openStore({ ...opts, stack }, home, project), resourceTypes),
    own: settings.get(ownSettings.name) ?? {},
    sandboxServed: () => line.served(),
    async checkBeforePlan(state, destroy) {
      const own = deferred ? checkInputsAgainstState(manifest, catalog, inputs, state.resources as never) : { diagnostics: [], valid: inputs };
      // With a problem already found, nothing is read remotely to look for more.
      const lookup = own.diagnostics.length ? undefined : (token: string, args: Record<string, unknown>) => invokeLookup(deps, token, args);
      // A destroy orders nothing: what the manifest shows against itself is all it is held to.
      const crossed = destroy
        ? deferred && hasCrossChecks(manifest, catalog.resourceTypes)
          ? await crossCheck({ manifest, types: catalog.resourceTypes, desired: own.valid })
          : []
        : await crossCheckStack(manifest, catalog, state.resources as never, lookup, own.valid);
      const problems = [...own.diagnostics, ...crossed];
      if (problems.length) throw new DiagnosticsError(inFileOrder(problems));
    },
    async close() {
      await store.close();
      await connect.close();
      await runtime.close();
    },
  };
}

/**
 * Connects providers when first used, one connection per provider resource (an unused one costs
 * nothing), telling `notify` of calls sent again and of waits for a rate window.
 */
function connector(
  parts: Pick<CheckedManifest, 'settings' | 'instances'> & { line: SandboxLine; log: Logger; rates: ReturnType<typeof rateRuntimes>; notify: (event: EngineEvent) => void },
): EngineDeps['connect'] & { close(): Promise<void> } {
  const { settings, instances, line, log, rates, notify } = parts;
  const connections = new Map<string, Promise<Connection>>();
  const connect = (name: string, instance?: string) => {
    const key = instance === undefined ? name : `${name}\u0000${instance}`;
    let connection = connections.get(key);
    if (!connection) {
      const provider = instance === undefined ? name : `${name} (${instance})`;
      const retrying = (n: RetryNotice) => notify({ type: 'retry', provider, ...n, at: new Date().toISOString() });
      const open = async (s: Record<string, unknown>) => connectProvider(name, s, line.sandboxFor(name, s, instance), log, retrying, rates.for(provider));
      connection = instance === undefined ? open(settings.get(name) ?? defaultSettings(name)) : instanceConnection(name, instance, instances.get(instance), open);
      connections.set(key, connection);
    }
    return connection;
  };
  return Object.assign(connect, { close: () => rates.close() });
}

/** The stack's state, loading the resource types of whatever it records. */
function sessionStore(opts: GlobalOptions, home: string, project: string, types: Map<string, ResourceType>): StateStore {
  return withRecordedTypes(openStore(opts, home, project), types);
}

/** Calls a lookup function for a check made before planning (see crossCheckStack). */
async function invokeLookup(deps: EngineDeps, token: string, args: Record<string, unknown>): Promise<unknown> {
  const fn = deps.lookup(token) ?? (await loadFunctions()).get(token);
  if (!fn) throw new Error(`no lookup function ${token}`);
  const { client, settings } = await deps.connect(fn.provider);
  return fn.invoke({ client, settings, log: deps.log.child({ fn: token }), warn: () => undefined, workDir: deps.workDir }, strict(fn.args).parse(args));
}

/** The connection of provider resource `instance`; one the manifest no longer declares is refused, naming it. */
async function instanceConnection(
  name: string,
  instance: string,
  declared: { provider: string; settings: Record<string, unknown> } | undefined,
  connect: (settings: Record<string, unknown>) => Promise<Connection>,
): Promise<Connection> {
  if (!declared || declared.provider !== name) {
    throw new UserError(
      `the ${name} provider "${instance}" is not declared in the manifest, and objects recorded under it are reached through it`,
      `declare it again (type: pulumi:providers:${name}, with its settings) until they are deleted or moved`,
    );
  }
  return connect(declared.settings);
}

/** The settings of a provider the manifest neither uses nor configures: its defaults. */
function defaultSettings(name: string): Record<string, unknown> {
  return (providerFor(`${name}:`)?.settings.parse({}) ?? {}) as Record<string, unknown>;
}

/** Connects one provider by name, to the sandbox when given its URL, refusing settings that fail the provider's own checks. */
export async function connectProvider(
  name: string,
  settings: Record<string, unknown>,
  sandboxUrl: (() => Promise<string>) | undefined,
  log: Logger,
  retrying?: (n: RetryNotice) => void,
  rates?: RateRuntime,
): Promise<Connection> {
  const provider = providerFor(`${name}:`);
  if (!provider) throw new UserError(`unknown provider ${name}`);
  const problems = provider.check?.(settings) ?? [];
  if (problems.length) throw new UserError(problems.join('\n'));
  const client = await provider.connect(settings, { sandboxUrl, log, env: process.env, retrying, rates });
  return { client, settings, waitTimeMs: provider.waitTimeMs?.(settings) };
}

/** Starts the built-in sandbox on first use (or uses PLUMB_SANDBOX_URL). */
export function sandboxRuntime(dataDir: string): { url: () => Promise<string>; close: () => Promise<void> } {
  let started: Promise<Sandbox> | undefined;
  return {
    url: async () => {
      if (process.env.PLUMB_SANDBOX_URL) return process.env.PLUMB_SANDBOX_URL.replace(/\/$/, '');
      // Loaded on first use: commands that never call a provider never pay for the simulated APIs.
      started ??= Promise.all([import('@plumb/sandbox'), sandboxSettings(process.env)]).then(([{ startSandbox }, settings]) => {
        keepGitOutOfWorld(dataDir);
        return startSandbox({ dataDir, ...settings });
      });
      return (await started).url;
    },
    close: async () => {
      if (started) await (await started).close();
    },
  };
}

/**
 * The store, loading into `types` the resource types of every provider a snapshot it reads holds
 * objects of (or operations on), before anyone sees the snapshot: the manifest may no longer name
 * a provider whose objects are still recorded, and the engine asks for a type without waiting.
 */
function withRecordedTypes(store: StateStore, types: Map<string, ResourceType>): StateStore {
  const read = store.read.bind(store);
  store.read = async (options) => {
    const snapshot = await read(options);
    const recorded = [...Object.values(snapshot.resources), ...snapshot.pending].map((r) => r.type);
    const missing = new Set(recorded.filter((token) => !types.has(token)).map((token) => token.split(':')[0]));
    if (missing.size) for (const [token, type] of await loadResourceTypes(missing)) types.set(token, type);
    return snapshot;
  };
  return store;
}

/** Lock holder details for this process. */
export function lockInfo(command: string) {
  return { pid: process.pid, host: hostname(), time: new Date().toISOString(), command };
}

/** The folder a manifest's state and sandbox live beside: its project file's, for a program kept in a Main file. */
export function manifestDir(file: string): string {
  return dirname(resolve(projectFor(file)?.file ?? file));
}
