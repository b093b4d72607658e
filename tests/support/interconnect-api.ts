/**
 * Talks to the sandbox's interconnect API the way a person (or another tool) would: through the
 * API itself, with its own token. Used to make out-of-band changes and to count products.
 */
export class InterconnectApi {
  private token: string | undefined;
  constructor(private readonly sandboxUrl: string) {}

  private async bearer(): Promise<string> {
    if (this.token) return this.token;
    const res = await fetch(`${this.sandboxUrl}/interconnect/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('sandbox-key:sandbox-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    this.token = ((await res.json()) as { access_token: string }).access_token;
    return this.token;
  }

  /** One call; returns the envelope's data. */
  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.sandboxUrl}/interconnect${path}`, {
      method,
      headers: { authorization: `Bearer ${await this.bearer()}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text).data : undefined) as T;
  }

  /** Live (not cancelled or decommissioned) top-level products whose name starts with `prefix`. */
  async liveProducts(prefix: string): Promise<Array<Record<string, any>>> {
    const all = await this.call<Array<Record<string, any>>>('GET', '/v2/products');
    return all.filter((p) => String(p.productName).startsWith(prefix) && !['CANCELLED', 'CANCELLED_PARENT', 'DECOMMISSIONING', 'DECOMMISSIONED'].includes(p.provisioningStatus));
  }

  /** Orders a port directly (as if bought before plumb existed) and returns its UID. */
  async orderPort(productName: string, locationId = 2): Promise<string> {
    const order = { productName, term: 12, productType: 'MEGAPORT', portSpeed: 10000, locationId, createDate: 0, virtual: false, market: '', marketplaceVisibility: false, config: {} };
    await this.call('POST', '/v3/networkdesign/validate', [order]);
    const data = await this.call<Array<{ technicalServiceUid: string }>>('POST', '/v4/networkdesign/buy', { networkDesign: [order], discountCodes: [] });
    return data[0].technicalServiceUid;
  }
}
