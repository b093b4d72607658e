import { isRemote } from '../../../kernel/errors.js';
import type { InterconnectClient } from '../client.js';

/**
 * Whether a VLAN is free on a Port (`GET /v2/product/port/{uid}/vlan?vlan=N`, reference §3 #29:
 * the VLANs available, `[N]` when it is, `[]` when it is taken — in use, or still held after the
 * service that used it was cancelled). Undefined where the API cannot tell: the product is not a
 * Port (an MCR, an MVE, a partner's port).
 */
export async function vlanFree(client: InterconnectClient, portUid: string, vlan: number): Promise<boolean | undefined> {
  try {
    const { data } = await client.get<number[]>(`/v2/product/port/${encodeURIComponent(portUid)}/vlan`, { vlan: String(vlan) });
    return Array.isArray(data) ? data.includes(vlan) : undefined;
  } catch (err) {
    if (isRemote(err, 'not-found', 'invalid')) return undefined;
    throw err;
  }
}
