/**
 * The one HTTP transport of every provider client: node's `http` for `http:` origins (the
 * sandbox, a plain-HTTP endpoint) and `https` for TLS ones, each with one keep-alive agent, so
 * tests exercise the code production uses. It sends, follows redirects and reads the whole
 * answer; it never retries (retry.ts decides that). A certificate that fails verification is
 * told apart (certificateProblem), since no retry can get past it.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { createRequire } from 'node:module';

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
  /** Longest silence while waiting for the answer (default 5 minutes). */
  timeoutMs?: number;
}

/** A sender with sendRequest's contract; clients take one so tests can record or alter requests. */
export type Sender = (url: URL, init: HttpRequestInit) => Promise<HttpResponse>;

/** Most redirects followed for one request. */
const MAX_REDIRECTS = 20;
/** Free connections close after 4 s, before a server's usual 5 s keep-alive ends them under a request. */
const FREE_SOCKET_MS = 4000;
const DEFAULT_TIMEOUT_MS = 300_000;
/**
 * Most connections open to one origin. Steps run unbounded and an endpoint without limits (the
 * sandbox) sets no cap on calls in flight, so without this a command of thousands of steps would
 * open a connection per step, past the open-file limit of many machines (256 on macOS).
 */
const MAX_SOCKETS = 64;

let httpAgent: HttpAgent | undefined;
let https: typeof import('node:https') | undefined;
let httpsAgent: HttpsAgent | undefined;

/**
 * Sends one request and reads the whole answer, following redirects (a 303, and a 301/302 after
 * a POST, become a GET without the body; credentials never go to another origin). Rejects with
 * an Error naming the cause (`connect ECONNREFUSED ...`, `socket hang up`, `no answer within
 * 30 s`) when no answer arrives; such an Error carries `code` where node gives one.
 */
export async function sendRequest(url: URL, init: HttpRequestInit): Promise<HttpResponse> {
  let target = url;
  let request = init;
  for (let hop = 0; ; hop++) {
    const response = await exchange(target, request);
    const location = response.status >= 300 && response.status < 400 && response.status !== 304 ? response.headers.get('location') : null;
    if (!location || hop >= MAX_REDIRECTS) return response;
    const next = new URL(location, target);
    const headers = { ...request.headers };
    if (next.origin !== target.origin) for (const name of Object.keys(headers)) if (/^(authorization|cookie)$/i.test(name)) delete headers[name];
    const toGet = response.status === 303 ? request.method !== 'HEAD' : (response.status === 301 || response.status === 302) && request.method === 'POST';
    if (toGet) for (const name of Object.keys(headers)) if (/^content-/i.test(name)) delete headers[name];
    request = toGet ? { ...request, method: 'GET', headers, body: undefined } : { ...request, headers };
    target = next;
  }
}

/** One request and its answer over a kept-alive connection of the origin's protocol. */
function exchange(url: URL, init: HttpRequestInit): Promise<HttpResponse> {
  const { send, agent } = transportFor(url);
  const headers: Record<string, string | number> = { ...init.headers };
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
  if (body) headers['content-length'] = body.length;
  const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: init.method, headers, agent, timeout: timeoutMs }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('socket hang up')));
      res.on('end', () => {
        // An answer cut short (fewer bytes than its length said) is no answer.
        if (!res.complete) return reject(new Error('socket hang up'));
        const status = res.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, headers: headerReader(res.headers), text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body);
  });
}

/** Node's codes for a server certificate signed by an authority this machine does not trust. */
const UNTRUSTED_ISSUER = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
]);
/** Node's other codes for a server certificate that failed verification. */
const BAD_CERTIFICATE = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
  'CERT_CHAIN_TOO_LONG',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
]);

/**
 * What to tell the user when a request failed because the server's TLS certificate could not be
 * verified, naming the host and what to do; undefined for any other failure. Nothing was sent
 * (the handshake failed first) and sending again cannot succeed, so clients make it final.
 */
export function certificateProblem(err: unknown, url: URL): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  const host = url.host;
  if (UNTRUSTED_ISSUER.has(code)) {
    return `the TLS certificate of ${host} is signed by an authority this machine does not trust (${code}); if ${host} is yours, set NODE_EXTRA_CA_CERTS to the file (PEM) of the authority that signed it and run plumb again`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return `the TLS certificate of ${host} is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not valid yet'} (${code}); check this machine's clock, or renew the server's certificate`;
  }
  if (BAD_CERTIFICATE.has(code)) {
    return `the TLS certificate of ${host} failed verification (${code}: ${(err as Error).message}); check the address, or the certificate the server presents`;
  }
  return undefined;
}

function transportFor(url: URL): { send: typeof httpRequest; agent: HttpAgent | HttpsAgent } {
  if (url.protocol === 'http:') return { send: httpRequest, agent: (httpAgent ??= new HttpAgent({ keepAlive: true, timeout: FREE_SOCKET_MS, maxSockets: MAX_SOCKETS })) };
  if (url.protocol !== 'https:') throw new Error(`${url.protocol} is not http: or https:`);
  // Loaded on first use: TLS takes a while to load, and commands against the sandbox never need it.
  https ??= createRequire(import.meta.url)('node:https') as typeof import('node:https');
  httpsAgent ??= new https.Agent({ keepAlive: true, timeout: FREE_SOCKET_MS, maxSockets: MAX_SOCKETS });
  return { send: https.request as unknown as typeof httpRequest, agent: httpsAgent };
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
