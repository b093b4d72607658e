import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import { plainRequest } from './plain-http.js';

/** A response as a client reads it: status, headers and the whole body as text. */
export interface HttpResponse {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text: string;
}

/** One request: method, headers and an optional text body. */
export interface HttpRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Longest wait for the whole exchange (default 5 minutes, as fetch's header and body timeouts). */
  timeoutMs?: number;
}

let https: typeof import('node:https') | undefined;
let httpsAgent: import('node:https').Agent | undefined;

/**
 * Sends one request and reads the whole answer, following redirects as fetch does. Plain-HTTP
 * origins (the sandbox) go through plain-http.ts, TLS ones through node:https; both keep
 * connections alive. Rejects with an Error naming the cause (`connect ECONNREFUSED ...`,
 * `socket hang up`) when no answer arrives. The API clients use this rather than fetch, which
 * costs several times the CPU per call: what decides how many calls a large apply makes per second.
 */
export async function sendRequest(url: URL, init: HttpRequestInit): Promise<HttpResponse> {
  let target = url;
  let request = init;
  for (let hop = 0; ; hop++) {
    const response = target.protocol === 'http:' ? await plainRequest(target, request) : await tlsRequest(target, request);
    const location = response.status >= 300 && response.status < 400 && response.status !== 304 ? response.headers.get('location') : null;
    if (!location || hop >= 20) return response;
    const next = new URL(location, target);
    const headers = { ...request.headers };
    // A move to another origin must not carry the credentials along.
    if (next.origin !== target.origin) for (const name of Object.keys(headers)) if (/^(authorization|cookie)$/i.test(name)) delete headers[name];
    const toGet = response.status === 303 ? request.method !== 'HEAD' : (response.status === 301 || response.status === 302) && request.method === 'POST';
    if (toGet) for (const name of Object.keys(headers)) if (/^content-/i.test(name)) delete headers[name];
    request = toGet ? { ...request, method: 'GET', headers, body: undefined } : { ...request, headers };
    target = next;
  }
}

async function tlsRequest(url: URL, init: HttpRequestInit): Promise<HttpResponse> {
  // Loaded on first use: TLS takes a while to load and most commands never need it.
  const { Agent, request: send } = (https ??= createRequire(import.meta.url)('node:https') as typeof import('node:https'));
  // Free connections close after 4 s, before a server's usual 5 s keep-alive ends them.
  httpsAgent ??= new Agent({ keepAlive: true, timeout: 4000 });
  const agent = httpsAgent;
  const headers: Record<string, string | number> = { ...init.headers };
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
  if (body) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: init.method, headers, agent, timeout: init.timeoutMs ?? 300_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, headers: headerReader(res.headers), text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${Math.round((init.timeoutMs ?? 300_000) / 1000)} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

function headerReader(headers: IncomingHttpHeaders): HttpResponse['headers'] {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}
