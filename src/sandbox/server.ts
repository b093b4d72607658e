import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { sandboxApis } from './apis.js';
import { limitsAdmin, SandboxLimits, throttle, type LimitsOption } from './limits.js';
import { settingsAnswer, type SandboxSettings } from './settings.js';
import type { SandboxApi, SandboxRequest, SandboxResponse } from './types.js';
import { FileWorld } from './world.js';

/** One received call, as `GET /_sandbox/calls` reports it. */
export interface CallRecord {
  provider: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  at: string;
}

/** A call as logged: kept cheap to record, turned into a CallRecord only when the log is read. */
interface ReceivedCall extends Omit<CallRecord, 'query' | 'at'> {
  query: URLSearchParams;
  at: number;
}

function callRecord(call: ReceivedCall): CallRecord {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(call.query.keys())) {
    const all = call.query.getAll(key);
    query[key] = all.length === 1 ? all[0] : all;
  }
  return { ...call, query, at: new Date(call.at).toISOString() };
}

/**
 * One fault for one call: the first call whose `METHOD /path?query` (below the provider prefix)
 * contains `match` gets it, then the fault is used up. Deterministic where rates are random.
 */
interface ScriptedFault {
  match?: string;
  /** Answer with this status, without handling the call. */
  status?: number;
  /** Retry-After sent with `status` (seconds or an HTTP date). */
  retryAfter?: string;
  /** `request`: close the connection without handling the call; `reply`: handle it, then close without answering. */
  drop?: 'request' | 'reply';
}

interface Faults {
  provider?: string;
  latencyMs?: number;
  rates?: Record<string, number>;
  retryAfterSeconds?: number;
  /** Share of calls whose connection closes before they are handled. */
  dropRate?: number;
  /** Share of calls that are handled but whose answer is lost (the connection closes instead). */
  dropReplyRate?: number;
  /** Faults for particular calls, each used once, in order. */
  next?: ScriptedFault[];
  /**
   * Makes the random faults reproducible: the nth call of one shape (provider, method, path and
   * query with ids left out) gets the same fault in every run with this seed, whatever order
   * concurrent calls of other shapes arrive in. Without it, faults are drawn from Math.random.
   */
  seed?: number;
}

/** Draws the numbers in [0, 1) that decide one call's random faults, one per purpose. */
type Dice = (purpose: 'drop' | 'status' | 'reply') => number;

/** Ids in a path or query (UUIDs, hex and decimal numbers), left out of a call's shape. */
const ID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b\d+\b/gi;

/** Random dice, or, with a seed, dice fixed by the call's shape and how many of that shape came before. */
function diceFor(injected: Faults, seen: Map<string, number>, provider: string, call: string): Dice {
  if (injected.seed === undefined) return () => Math.random();
  const shape = `${provider} ${call.replace(ID_PATTERN, '#')}`;
  const n = seen.get(shape) ?? 0;
  seen.set(shape, n + 1);
  return (purpose) => createHash('sha256').update(`${injected.seed}|${shape}|${n}|${purpose}`).digest().readUInt32BE(0) / 2 ** 32;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Folder for persistent data; undefined keeps everything in memory. */
  dataDir?: string;
  provisioningMs?: number;
  /** See SandboxSettings; undefined keeps what the data folder has (or the default, today's API). */
  refuseEndOfTermCancel?: boolean;
  /** Simulated APIs to serve (default: all providers). */
  apis?: SandboxApi[];
  /** Serve HTTPS with this certificate and key (PEM) instead of plain HTTP. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Rate limits to enforce: the APIs' documented ones (`real`), none (`off`, the default), or a table of its own. */
  limits?: LimitsOption;
}

/** A running sandbox. */
export interface Sandbox {
  url: string;
  port: number;
  world: FileWorld;
  close(): Promise<void>;
}

/**
 * Starts the simulated remote APIs on a loopback port: `<url>/<provider>/...` for each API,
 * `<url>/_sandbox/...` for the admin endpoints (call log, faults, settings, provider actions).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const apis = options.apis ?? sandboxApis;
  const given: Partial<SandboxSettings> = {};
  if (options.provisioningMs !== undefined) given.provisioningMs = options.provisioningMs;
  if (options.refuseEndOfTermCancel !== undefined) given.refuseEndOfTermCancel = options.refuseEndOfTermCancel;
  const world = new FileWorld(options.dataDir, given);
  const limits = new SandboxLimits(options.limits, world);
  const calls: ReceivedCall[] = [];
  let faults: Faults | undefined;
  /** Calls of each shape seen since the faults were set, for seeded dice. */
  const shapes = new Map<string, number>();

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, { status: 500, body: { message: `sandbox error: ${(err as Error).message}` } });
    });
  };
  // node:https is loaded only for a TLS sandbox: most runs never need it.
  const https = options.tls && (createRequire(import.meta.url)('node:https') as typeof import('node:https'));
  const server: Server = https && options.tls ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, listener) : createServer(listener);
  server.keepAliveTimeout = 5000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const rawBody = await readBody(req);
    // `/<first>/<rest...>`: the provider (or `_sandbox`) and the path below it.
    const slash = url.pathname.indexOf('/', 1);
    const first = slash < 0 ? url.pathname.slice(1) : url.pathname.slice(1, slash);
    const rest = slash < 0 ? '' : url.pathname.slice(slash + 1);
    if (first === '_sandbox') return send(res, await admin(rest, req.method ?? 'GET', url, parseBody(rawBody, req.headers['content-type'])));
    const api = apis.find((a) => a.provider === first);
    if (!api) return send(res, { status: 404, body: { message: `no simulated API at /${first}` } });
    const request: SandboxRequest = {
      method: req.method ?? 'GET',
      path: `/${rest}`,
      query: url.searchParams,
      headers: req.headers,
      rawBody,
      body: parseBody(rawBody, req.headers['content-type']),
    };
    const injected = faults && (!faults.provider || faults.provider === api.provider) ? faults : undefined;
    if (injected?.latencyMs) await new Promise((r) => setTimeout(r, injected.latencyMs));
    const admission = limits.covers(api.provider) ? throttle(limits, api, request, req.socket.remoteAddress ?? '', world.now()) : undefined;
    if (admission?.refusal) {
      record(api.provider, request, admission.refusal.status);
      return send(res, admission.refusal);
    }
    const call = `${request.method} ${request.path}${url.search}`;
    const scripted = injected && takeScripted(injected, call);
    const dice = injected && !scripted ? diceFor(injected, shapes, api.provider, call) : undefined;
    if (scripted?.drop === 'request' || (dice && injected?.dropRate && dice('drop') < injected.dropRate)) {
      record(api.provider, request, 0);
      req.socket.destroy();
      return;
    }
    let response = scripted?.status ? faultAnswer(api, scripted.status, scripted.retryAfter) : dice && injectedFault(api, injected, dice);
    if (!response) {
      try {
        response = await api.handle(request, world);
      } catch (err) {
        response = { status: 500, body: api.faultBody?.(500) ?? { message: (err as Error).message } };
      }
      if (scripted?.drop === 'reply' || (dice && injected?.dropReplyRate && dice('reply') < injected.dropReplyRate)) {
        // Handled, but the answer never arrives: what a client sees when a reply is lost.
        record(api.provider, request, 0);
        req.socket.destroy();
        return;
      }
    }
    record(api.provider, request, response.status);
    send(res, admission?.headers ? { ...response, headers: { ...response.headers, ...admission.headers } } : response);
  }

  function takeScripted(injected: Faults, call: string): ScriptedFault | undefined {
    const at = injected.next?.findIndex((f) => !f.match || call.includes(f.match)) ?? -1;
    return at < 0 ? undefined : injected.next?.splice(at, 1)[0];
  }

  function faultAnswer(api: SandboxApi, code: number, retryAfter?: string): SandboxResponse {
    const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': retryAfter };
    return { status: code, headers, body: api.faultBody?.(code) ?? { message: `injected ${code}` } };
  }

  function injectedFault(api: SandboxApi, injected: Faults | undefined, dice: Dice): SandboxResponse | undefined {
    if (!injected?.rates) return undefined;
    let roll = dice('status');
    for (const [status, rate] of Object.entries(injected.rates)) {
      if (roll < rate) {
        const code = Number(status);
        return faultAnswer(api, code, code === 429 ? String(injected.retryAfterSeconds ?? 1) : undefined);
      }
      roll -= rate;
    }
    return undefined;
  }

  function record(provider: string, req: SandboxRequest, status: number): void {
    calls.push({ provider, method: req.method, path: req.path, query: req.query, status, at: Date.now() });
  }

  async function admin(name: string, method: string, url: URL, body: unknown): Promise<SandboxResponse> {
    if (name === 'calls' && method === 'GET') {
      const provider = url.searchParams.get('provider');
      return { status: 200, body: (provider ? calls.filter((c) => c.provider === provider) : calls).map(callRecord) };
    }
    if (name === 'calls' && method === 'DELETE') {
      calls.length = 0;
      return { status: 204 };
    }
    if (name === 'faults' && method === 'POST') {
      const given = (body ?? {}) as Faults;
      if (given.next !== undefined && !Array.isArray(given.next)) return { status: 400, body: { message: 'next must be a list of {match?, status?, retryAfter?, drop?}' } };
      if (given.seed !== undefined && !Number.isFinite(given.seed)) return { status: 400, body: { message: 'seed must be a number' } };
      faults = { ...given, next: given.next?.slice() };
      shapes.clear();
      return { status: 200, body: faults };
    }
    if (name === 'faults' && method === 'DELETE') {
      faults = undefined;
      return { status: 204 };
    }
    if (name === 'settings' && method === 'POST') return settingsAnswer(body, world);
    if (name === 'settings' && method === 'GET') return { status: 200, body: world.settings() };
    if (name === 'limits') return limitsAdmin(limits, method, body, world.now());
    for (const api of apis) {
      const answer = await api.admin?.(name, body, world);
      if (answer) return answer;
    }
    return { status: 404, body: { message: `unknown admin endpoint /_sandbox/${name}` } };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    world,
    close: async () => {
      world.flush();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw) return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function send(res: ServerResponse, response: SandboxResponse): void {
  const headers: Record<string, string | number> = { ...response.headers };
  let payload = '';
  if (response.body !== undefined) {
    payload = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    headers['content-type'] ??= typeof response.body === 'string' ? 'text/plain' : 'application/json';
  }
  // An explicit length, as the real API sends: writeHead before end would otherwise make node
  // frame every answer as chunked, which costs both ends a parse per chunk.
  // (204 and 304 carry no body and, by RFC 9110, no length either.)
  if (response.status !== 204 && response.status !== 304) headers['content-length'] = Buffer.byteLength(payload);
  res.writeHead(response.status, headers);
  res.end(payload);
}
