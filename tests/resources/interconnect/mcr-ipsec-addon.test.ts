import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { port } from '../../../src/resources/interconnect/port.js';
import { vxc } from '../../../src/resources/interconnect/vxc.js';
import { startSandbox } from '@plumb/sandbox';
import { interconnectContext } from '../../support/interconnect-context.js';
import { mcrIpsecAddon } from '../../../src/resources/interconnect/mcr-ipsec-addon.js';
import { makeMcr } from './fixtures.js';

describe('McrIpsecAddon rules', () => {
  it('tunnelCount is 10, 20 or 30', () => {
    for (const n of [10, 20, 30]) expect(z.safeParse(mcrIpsecAddon.inputs, { mcrId: 'abcd-1', tunnelCount: n }).success).toBe(true);
    for (const n of [0, 15, 40]) expect(z.safeParse(mcrIpsecAddon.inputs, { mcrId: 'abcd-1', tunnelCount: n }).success).toBe(false);
  });

  it('a tunnelCount change is in place; a new mcrId replaces', () => {
    expect(mcrIpsecAddon.replace.on.map((r) => r.path)).toEqual(['mcrId']);
  });

  it('a malformed import id names the format', () => {
    expect(() => mcrIpsecAddon.importId!.parse('abcd-1234:')).toThrow('<mcr_uid>:<add_on_uid>');
    expect(mcrIpsecAddon.importId!.parse(' abcd-1234:ffff-0000 ')).toBe('abcd-1234:ffff-0000');
  });
});

describe('removing the add-on while tunnels are configured', () => {
  it('retries the refusal until the VXC carrying the tunnel is gone', async () => {
    const sandbox = await startSandbox({ provisioningMs: 0 });
    try {
      const ctx = await interconnectContext(sandbox.url, 'ipsec', 20_000);
      const mcrId = await makeMcr(ctx, 'ipsec-tunnels');
      const portId = (await port.create(ctx, { productName: 'ipsec-port', portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false })).id;
      const addOn = await mcrIpsecAddon.create(ctx, { mcrId, tunnelCount: 10 });
      const tunnel = {
        productName: 'tunnel-vxc',
        rateLimit: 100,
        contractTermMonths: 1,
        aEnd: { requestedProductUid: portId, vlan: 600 },
        bEnd: { requestedProductUid: mcrId },
        bEndPartnerConfig: {
          partner: 'vrouter' as const,
          interfaces: [{ interfaceType: 'ipSecTunnel' as const, ipSecTunnelOptions: { sourceIpAddress: '192.0.2.1', destinationIpAddress: '198.51.100.1', preSharedKey: 'k' } }],
        },
      };
      const carrier = await vxc.create(ctx, tunnel);
      const removal = mcrIpsecAddon.delete(ctx, addOn.id, { inputs: { mcrId, tunnelCount: 10 }, outputs: addOn.outputs });
      await new Promise((r) => setTimeout(r, 500));
      expect(await mcrIpsecAddon.read(ctx, addOn.id)).toBeDefined();
      await vxc.delete(ctx, carrier.id, { inputs: tunnel, outputs: carrier.outputs });
      await removal;
      expect(await mcrIpsecAddon.read(ctx, addOn.id)).toBeUndefined();
    } finally {
      await sandbox.close();
    }
  });
});
