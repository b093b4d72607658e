import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/server.js';

/** A reply as the tests look at it: status, parsed JSON body, headers. */
export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Raw HTTP against the sandbox, no auth added. */
export async function http<T = any>(url: string, init: RequestInit = {}): Promise<Reply<T>> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // plain text body
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

/** Basic auth header for a key pair. */
export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

/** The sandbox account's key and secret, the only pair its token endpoint accepts. */
export const SANDBOX_KEY = 'sandbox-key';
export const SANDBOX_SECRET = 'sandbox-secret';

/** Exchanges the sandbox's credentials for a bearer token the way the Go SDK does (grant_type in the query). */
export async function getToken(url: string): Promise<string> {
  const r = await http(`${url}/interconnect/oauth2/token?grant_type=client_credentials`, {
    method: 'POST',
    headers: { authorization: basic(SANDBOX_KEY, SANDBOX_SECRET), 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (r.status !== 200) throw new Error(`token: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.access_token;
}

/** An authenticated client for the interconnect API of one sandbox. */
export class Api {
  constructor(
    readonly url: string,
    public token: string,
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return http<T>(`${this.url}/interconnect${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  get<T = any>(path: string) {
    return this.call<T>('GET', path);
  }

  post<T = any>(path: string, body?: unknown) {
    return this.call<T>('POST', path, body);
  }

  put<T = any>(path: string, body?: unknown) {
    return this.call<T>('PUT', path, body);
  }

  delete<T = any>(path: string) {
    return this.call<T>('DELETE', path);
  }

  /** POSTs to an admin endpoint of the sandbox. */
  admin<T = any>(name: string, body: unknown) {
    return http<T>(`${this.url}/_sandbox/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** Validates then buys a design, failing the test with the reply when either step is refused. */
  async order(design: unknown[]): Promise<any[]> {
    const v = await this.post('/v3/networkdesign/validate', design);
    if (v.status !== 200) throw new Error(`validate: ${v.status} ${JSON.stringify(v.body)}`);
    const b = await this.post('/v4/networkdesign/buy', { networkDesign: design, discountCodes: [] });
    if (b.status !== 200) throw new Error(`buy: ${b.status} ${JSON.stringify(b.body)}`);
    return b.body.data;
  }

  async product(uid: string): Promise<any> {
    const r = await this.get(`/v2/product/${uid}`);
    if (r.status !== 200) throw new Error(`get ${uid}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  }

  async buyPort(over: Record<string, unknown> = {}): Promise<string> {
    const [entry] = await this.order([portOrder(over)]);
    return entry.technicalServiceUid;
  }

  async buyMcr(over: Record<string, unknown> = {}): Promise<string> {
    const [entry] = await this.order([mcrOrder(over)]);
    return entry.technicalServiceUid;
  }

  async buyVxc(aUid: string, bUid: string, over: Record<string, unknown> = {}, aEnd: Record<string, unknown> = {}, bEnd: Record<string, unknown> = {}): Promise<string> {
    const [entry] = await this.order([vxcOrder(aUid, bUid, over, aEnd, bEnd)]);
    return entry.vxcJTechnicalServiceUid;
  }
}

/** A Port order at Equinix SY1 as the Go SDK sends it. */
export function portOrder(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    productName: 'syd-port-1',
    term: 12,
    productType: 'MEGAPORT',
    portSpeed: 10000,
    locationId: 2,
    createDate: 0,
    virtual: false,
    market: '',
    marketplaceVisibility: false,
    config: { diversityZone: 'red' },
    ...over,
  };
}

/** An MCR order at Equinix SY1. */
export function mcrOrder(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { productName: 'syd-mcr', term: 1, productType: 'MCR2', portSpeed: 1000, locationId: 2, costCentre: '', config: { mcrAsn: 64512 }, ...over };
}

/** A VXC order from `aUid` to `bUid`. */
export function vxcOrder(aUid: string, bUid: string, over: Record<string, unknown> = {}, aEnd: Record<string, unknown> = {}, bEnd: Record<string, unknown> = {}) {
  return {
    productUid: aUid,
    associatedVxcs: [{ productName: 'vxc-1', rateLimit: 100, term: 1, shutdown: false, aEnd: { productUid: aUid, ...aEnd }, bEnd: { productUid: bUid, ...bEnd }, ...over }],
  };
}

/** Starts a sandbox and returns it with an authenticated client. */
export async function startWithClient(options: SandboxOptions = { provisioningMs: 0 }): Promise<{ sandbox: Sandbox; api: Api }> {
  const sandbox = await startSandbox(options);
  const api = new Api(sandbox.url, await getToken(sandbox.url));
  return { sandbox, api };
}

/** Sets the world's provisioning delay through the admin endpoint. */
export async function setProvisioningMs(url: string, ms: number): Promise<void> {
  await http(`${url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ provisioningMs: ms }) });
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls a product until its status satisfies `done`, or throws after `timeoutMs`. */
export async function waitForStatus(api: Api, uid: string, done: (s: string) => boolean, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await api.product(uid)).provisioningStatus as string;
    if (done(status) || Date.now() > deadline) return status;
    await sleep(25);
  }
}

/** The first seeded partner port matching the filter. */
export async function partnerPort(api: Api, match: (p: any) => boolean): Promise<any> {
  const r = await api.get('/v2/dropdowns/partner/megaports');
  const port = r.body.data.find(match);
  if (!port) throw new Error('no partner port matches');
  return port;
}
