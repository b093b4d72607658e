import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { sandboxApis } from './apis.js';
import { CallLog } from './call-log.js';
import { SandboxFaults } from './faults.js';
import { limitsAdmin, SandboxLimits, throttle, type LimitsOption } from './limits.js';
import { settingsAnswer, type SandboxSettings } from './settings.js';
import type { SandboxApi, SandboxRequest, SandboxResponse } from './types.js';
import { FileWorld } from './world.js';

/** How a sandbox is started. */
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
  const parts: Parts = { apis, world, limits: new SandboxLimits(options.limits, world), calls: new CallLog(), faults: new SandboxFaults() };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(parts, req, res).catch((err) => {
      if (!res.headersSent) send(res, { status: 500, body: { message: `sandbox error: ${(err as Error).message}` } });
    });
  };
  // node:https is loaded only for a TLS sandbox: most runs never need it.
  const https = options.tls && (createRequire(import.meta.url)('node:https') as typeof import('node:https'));
  const server: Server = https && options.tls ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, listener) : createServer(listener);
  server.keepAliveTimeout = 5000;
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

/** What one running sandbox serves from. */
interface Parts {
  apis: SandboxApi[];
  world: FileWorld;
  limits: SandboxLimits;
  calls: CallLog;
  faults: SandboxFaults;
}

/** Serves one call: an admin endpoint, or a provider's API behind its limits and any injected faults. */
async function handle(parts: Parts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const rawBody = await readBody(req);
  // `/<first>/<rest...>`: the provider (or `_sandbox`) and the path below it.
  const slash = url.pathname.indexOf('/', 1);
  const first = slash < 0 ? url.pathname.slice(1) : url.pathname.slice(1, slash);
  const rest = slash < 0 ? '' : url.pathname.slice(slash + 1);
  const body = parseBody(rawBody, req.headers['content-type']);
  if (first === '_sandbox') return send(res, await admin(parts, rest, req.method ?? 'GET', url, body));
  const api = parts.apis.find((a) => a.provider === first);
  if (!api) return send(res, { status: 404, body: { message: `no simulated API at /${first}` } });
  const request: SandboxRequest = { method: req.method ?? 'GET', path: `/${rest}`, query: url.searchParams, headers: req.headers, rawBody, body };
  const latency = parts.faults.latencyMs(api.provider);
  if (latency) await new Promise((r) => setTimeout(r, latency));
  const { limits, world, calls } = parts;
  const admission = limits.covers(api.provider) ? throttle(limits, api, request, req.socket.remoteAddress ?? '', world.now()) : undefined;
  if (admission?.refusal) {
    calls.record(api.provider, request, admission.refusal.status);
    return send(res, admission.refusal);
  }
  const verdict = parts.faults.verdict(api, `${request.method} ${request.path}${url.search}`);
  if (verdict.dropRequest) {
    calls.record(api.provider, request, 0);
    req.socket.destroy();
    return;
  }
  let response = verdict.answer;
  if (!response) {
    try {
      response = await api.handle(request, world);
    } catch (err) {
      response = { status: 500, body: api.faultBody?.(500) ?? { message: (err as Error).message } };
    }
    if (verdict.dropReply) {
      // Handled, but the answer never arrives: what a client sees when a reply is lost.
      calls.record(api.provider, request, 0);
      req.socket.destroy();
      return;
    }
  }
  calls.record(api.provider, request, response.status);
  send(res, admission?.headers ? { ...response, headers: { ...response.headers, ...admission.headers } } : response);
}

/** The `/_sandbox/<name>` admin endpoints: call log, faults, settings, limits, then each API's own. */
async function admin(parts: Parts, name: string, method: string, url: URL, body: unknown): Promise<SandboxResponse> {
  const { world, faults } = parts;
  if (name === 'calls') {
    const answer = parts.calls.admin(method, url);
    if (answer) return answer;
  }
  if (name === 'faults' && method === 'POST') return faults.set(body);
  if (name === 'faults' && method === 'DELETE') {
    faults.clear();
    return { status: 204 };
  }
  if (name === 'settings' && method === 'POST') return settingsAnswer(body, world);
  if (name === 'settings' && method === 'GET') return { status: 200, body: world.settings() };
  if (name === 'limits') return limitsAdmin(parts.limits, method, body, world.now());
  for (const api of parts.apis) {
    const answer = await api.admin?.(name, body, world);
    if (answer) return answer;
  }
  return { status: 404, body: { message: `unknown admin endpoint /_sandbox/${name}` } };
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
