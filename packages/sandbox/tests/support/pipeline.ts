/**
 * A sandbox serving only the pipeline API, its admin endpoints, and calls to it with the sandbox
 * account's key as the web UI or the vendor's SDK make them.
 */
import { pipelineApi } from '../../src/pipeline/index.js';
import { startSandbox, type Sandbox } from '../../src/server.js';

/** API key the tests use: the sandbox account's, the only one it accepts. */
export const TEST_KEY = 'sandbox-key';
/** API secret the tests use (the sandbox account's); it must never show up in output. */
export const TEST_SECRET = 'sandbox-secret';
/** The test key as a Basic authorization header. */
export const TEST_AUTH = `Basic ${Buffer.from(`${TEST_KEY}:${TEST_SECRET}`).toString('base64')}`;

/** One call the sandbox recorded. */
export interface Call {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
}

/** A sandbox serving only the pipeline API, with helpers for its admin endpoints. */
export interface PipelineSandbox extends Sandbox {
  /** Base address a client uses: `<url>/pipeline/v1`. */
  baseUrl: string;
  calls(): Promise<Call[]>;
  clearCalls(): Promise<void>;
  /** The next `count` calls answer 429 with this Retry-After (through `/_sandbox/faults`, replacing other faults). */
  throttle(count: number, retryAfterSeconds: number): Promise<void>;
  faults(body: unknown): Promise<void>;
  clearFaults(): Promise<void>;
  /** Sets the rate limits in force (`POST /_sandbox/limits`), forgetting what was counted. */
  limits(limits: 'real' | 'off' | unknown[]): Promise<void>;
}

/** Starts a sandbox with instant provisioning, serving the pipeline API only. */
export async function pipelineSandbox(): Promise<PipelineSandbox> {
  const sandbox = await startSandbox({ provisioningMs: 0, apis: [pipelineApi] });
  const admin = async (method: string, name: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}/_sandbox/${name}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`admin ${method} ${name}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as unknown);
  };
  return {
    ...sandbox,
    baseUrl: `${sandbox.url}/pipeline/v1`,
    calls: async () => (await admin('GET', 'calls?provider=pipeline')) as Call[],
    clearCalls: async () => void (await admin('DELETE', 'calls')),
    throttle: async (count, retryAfterSeconds) =>
      void (await admin('POST', 'faults', { provider: 'pipeline', next: Array.from({ length: count }, () => ({ status: 429, retryAfter: String(retryAfterSeconds) })) })),
    faults: async (body) => void (await admin('POST', 'faults', body)),
    clearFaults: async () => void (await admin('DELETE', 'faults')),
    limits: async (limits) => void (await admin('POST', 'limits', { limits })),
  };
}

/** Raw GET against the sandbox with Basic credentials (or the given headers). */
export async function rawGet(sandbox: PipelineSandbox, path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${sandbox.url}/pipeline${path}`, { headers: headers ?? { authorization: TEST_AUTH } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/**
 * One call to a sandbox's pipeline API (at `url`, the sandbox's root) with the test key, as the
 * web UI or anyone with a key makes it: a JSON content type when a body is sent, or, `asSdk`, on
 * every POST and PATCH as the vendor's Go SDK sends it, with a body or without. An empty answer
 * has no body.
 */
export async function pipelineCall(url: string, method: string, path: string, body?: unknown, options: { asSdk?: boolean } = {}): Promise<{ status: number; body: any }> {
  const { status, body: answer } = await pipelineRequest(url, method, path, body, options);
  return { status, body: answer };
}

/** `pipelineCall`, with the answer's headers. */
export async function pipelineRequest(url: string, method: string, path: string, body?: unknown, options: { asSdk?: boolean } = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const json = options.asSdk ? method === 'POST' || method === 'PATCH' : body !== undefined;
  const res = await fetch(`${url}/pipeline/v1${path}`, {
    method,
    headers: { authorization: TEST_AUTH, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** A warehouse destination's config behind an SSH tunnel, its port and tunnel port sent as numbers. */
export const TUNNELLED_WAREHOUSE = {
  host: 'wh.example.com',
  port: 443,
  database: 'wh',
  user: 'loader',
  password: 'pw',
  connection_type: 'SshTunnel',
  tunnel_host: 'jump.example.com',
  tunnel_port: 22,
  tunnel_user: 'jump',
};
