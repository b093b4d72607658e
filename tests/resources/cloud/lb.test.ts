/** The load balancer types' own rules: which Action each change sends, what is never sent or shown, what the lookups see. */
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLbAttachments } from '../../../src/lookups/cloud/get-lb-attachments.js';
import { getLbRules } from '../../../src/lookups/cloud/get-lb-rules.js';
import { getLbs } from '../../../src/lookups/cloud/get-lbs.js';
import { eip } from '../../../src/resources/cloud/eip.js';
import { eipAssociation } from '../../../src/resources/cloud/eip-association.js';
import { lb } from '../../../src/resources/cloud/lb.js';
import { lbAttachment } from '../../../src/resources/cloud/lb-attachment.js';
import { lbListener } from '../../../src/resources/cloud/lb-listener.js';
import { lbRule } from '../../../src/resources/cloud/lb-rule.js';
import { lbSsl } from '../../../src/resources/cloud/lb-ssl.js';
import { lbSslAttachment } from '../../../src/resources/cloud/lb-ssl-attachment.js';
import { securityGroup } from '../../../src/resources/cloud/security-group.js';
import { subnet } from '../../../src/resources/cloud/subnet.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import type { CloudClient } from '../../../src/providers/cloud/index.js';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { run } from '../../support/cloud-lookup-kit.js';
import { pem } from './lb-specs.js';

let h: Harness;
let home: { vpcId: string; subnetId: string; hosts: string[] };
beforeAll(async () => {
  h = await startHarness();
  const c = h.resourceCtx('lb-home');
  const net = await vpc.create(c, { name: 'lb-tests', cidrBlocks: ['10.90.0.0/16'] });
  const sub = await subnet.create(c, { vpcId: net.id, cidrBlock: '10.90.1.0/24' });
  const hosts = await (c.client as CloudClient).pageAll<{ UHostId: string }>('DescribeUHostInstance', {}, 'UHostSet');
  home = { vpcId: net.id, subnetId: sub.id, hosts: hosts.slice(0, 2).map((x) => x.UHostId) };
});
afterAll(() => h.close());

/** The Actions `act` sends, in order, reads left out. */
async function writes(act: () => Promise<unknown>): Promise<string[]> {
  await h.clearCalls();
  await act();
  return (await h.actions()).filter((a) => !a.startsWith('Describe'));
}

/** A balancer with an HTTP listener and both hosts behind it on port 8080. */
async function pool(name: string) {
  const c = h.resourceCtx(name);
  const made = await lb.create(c, { vpcId: home.vpcId, subnetId: home.subnetId, name });
  const listener = await lbListener.create(c, { lbId: made.id, protocol: 'http', port: 80 });
  const backends = [];
  for (const host of home.hosts) backends.push(await lbAttachment.create(c, { lbId: made.id, listenerId: listener.outputs.listenerId, resourceId: host, port: 8080 }));
  return { c, lb: made, listener, backends };
}

describe("in-place updates send the platform's own Action, once", () => {
  it('renaming, retagging and remarking a balancer is one UpdateULBAttribute call, the remark kept out of the tag', async () => {
    const c = h.resourceCtx('lb');
    const inputs = { vpcId: home.vpcId, subnetId: home.subnetId, name: 'front' };
    const made = await lb.create(c, inputs);
    const sent = await writes(() => lb.update(c, made.id, { inputs, outputs: made.outputs }, { ...inputs, name: 'front-2', tag: 'edge', remark: 'public entry' }));
    expect(sent).toEqual(['UpdateULBAttribute']);
    expect(await lb.read(c, made.id)).toMatchObject({ name: 'front-2', tag: 'edge', remark: 'public entry' });
  });

  it("an external balancer's security group is given at create, swapped by one GrantFirewall and taken off by one DisassociateFirewall; an internal one with a group is refused before any call", async () => {
    const c = h.resourceCtx('lb-fw');
    const group = async (name: string) => (await securityGroup.create(c, { name, rules: [{ protocol: 'tcp', port: '443' }] })).id;
    const [first, second] = [await group('lb-fw-a'), await group('lb-fw-b')];
    const bound = async (fw: string) => ((await signedCloudCall(h.sandbox.url, { Action: 'DescribeFirewallResource', FWId: fw })).ResourceSet ?? []).map((r: { ResourceID: string }) => r.ResourceID);
    const inputs = { vpcId: home.vpcId, subnetId: home.subnetId, name: 'guarded', securityGroupId: first };
    const made = await lb.create(c, inputs);
    expect(await bound(first)).toEqual([made.id]);
    expect(made.outputs.securityGroupId).toBe(first);
    expect(await writes(() => lb.update(c, made.id, { inputs, outputs: made.outputs }, { ...inputs, securityGroupId: second }))).toEqual(['GrantFirewall']);
    expect([await bound(first), await bound(second)]).toEqual([[], [made.id]]);
    expect(await writes(() => lb.update(c, made.id, { inputs, outputs: made.outputs }, { ...inputs, securityGroupId: undefined }))).toEqual(['DisassociateFirewall']);
    expect(await bound(second)).toEqual([]);
    const internal = z.safeParse(lb.inputs, { vpcId: home.vpcId, subnetId: home.subnetId, internal: true, securityGroupId: first });
    expect(internal.success).toBe(false);
    expect(internal.error?.issues).toEqual([expect.objectContaining({ path: ['securityGroupId'], message: expect.stringContaining('external') })]);
  });

  it("clearing a balancer's remark replaces it, and the plan's reason says why", () => {
    const base = { vpcId: 'uvnet-1', subnetId: 'subnet-1' };
    expect(lb.replace.when!.rules({ ...base, remark: 'x' }, base)).toEqual([{ path: 'remark', reason: expect.stringContaining('no Action clears') }]);
    expect(lb.replace.when!.rules(base, { ...base, remark: 'x' })).toEqual([]);
  });

  it("clearing a listener's health-check domain or path replaces it, since an empty value is no change to the API", () => {
    const base = { lbId: 'ulb-1', protocol: 'http' as const, port: 80 };
    expect(lbListener.replace.when?.rules({ ...base, domain: 'a.example.com', path: '/up' }, { ...base, path: '/up' })).toEqual([
      { path: 'domain', reason: expect.stringContaining('no Action clears') },
    ]);
    expect(lbListener.replace.when?.rules({ ...base, path: '/up' }, { ...base, path: '/ready' })).toEqual([]);
  });

  it("changing a listener's method and health check is one UpdateVServerAttribute call", async () => {
    const { c, listener } = await pool('vs-update');
    const inputs = { lbId: listener.outputs.lbId, protocol: 'http' as const, port: 80 };
    const sent = await writes(() => lbListener.update(c, listener.id, { inputs, outputs: listener.outputs }, { ...inputs, method: 'leastconn', healthCheckType: 'path', path: '/up' }));
    expect(sent).toEqual(['UpdateVServerAttribute']);
    expect(await lbListener.read(c, listener.id)).toMatchObject({ method: 'leastconn', healthCheckType: 'path', path: '/up', port: 80 });
  });

  it("changing a rule's backends is one UpdatePolicy call, not a replacement", async () => {
    const { c, lb: made, listener, backends } = await pool('rule-update');
    const [one, two] = backends.map((b) => b.outputs.backendId);
    const inputs = z.parse(lbRule.inputs, { lbId: made.id, listenerId: listener.outputs.listenerId, path: '/img/', backendIds: [one] });
    const rule = await lbRule.create(c, inputs);
    expect(lbRule.replace.on.map((r) => r.path)).not.toContain('backendIds');
    const sent = await writes(() => lbRule.update(c, rule.id, { inputs, outputs: rule.outputs }, { ...inputs, backendIds: [one, two] }));
    expect(sent).toEqual(['UpdatePolicy']);
    expect((await lbRule.read(c, rule.id))!.backendIds.sort()).toEqual([one, two].sort());
  });

  it("a backend's port and weight change with one UpdateBackendAttribute call", async () => {
    const { c, backends } = await pool('backend-update');
    const b = backends[0];
    const inputs = { lbId: b.outputs.lbId, listenerId: b.outputs.listenerId, resourceId: b.outputs.resourceId, port: 8080 };
    const sent = await writes(() => lbAttachment.update(c, b.id, { inputs, outputs: b.outputs }, { ...inputs, port: 9090, weight: 10 }));
    expect(sent).toEqual(['UpdateBackendAttribute']);
  });

  it("a certificate's name changes with one UpdateSSLAttribute call, and a listener's certificate is swapped with one UpdateSSLBinding", async () => {
    const c = h.resourceCtx('tls');
    const key = { privateKey: pem('PRIVATE KEY', 'a2V5'), userCert: pem('CERTIFICATE', 'Y2VydA==') };
    const [a, b] = [await lbSsl.create(c, { ...key, name: 'cert-a' }), await lbSsl.create(c, { ...key, name: 'cert-b' })];
    expect(await writes(() => lbSsl.update(c, a.id, { inputs: { ...key, name: 'cert-a' }, outputs: a.outputs }, { ...key, name: 'cert-a2' }))).toEqual(['UpdateSSLAttribute']);
    const made = await lb.create(c, { vpcId: home.vpcId, subnetId: home.subnetId, name: 'tls-lb' });
    const https = await lbListener.create(c, { lbId: made.id, protocol: 'https' });
    const inputs = { lbId: made.id, listenerId: https.outputs.listenerId, sslId: a.id };
    const bound = await lbSslAttachment.create(c, inputs);
    expect(await writes(() => lbSslAttachment.update(c, bound.id, { inputs, outputs: bound.outputs }, { ...inputs, sslId: b.id }))).toEqual(['UpdateSSLBinding']);
    expect(await lbSslAttachment.read(c, bound.id)).toEqual({ ...inputs, sslId: b.id });
  });
});

/** The client, except that the API does not offer `action` to it (the sandbox answers an unknown Action, 161). */
function notOffering(client: CloudClient, action: string): CloudClient {
  const narrowed = Object.create(client) as CloudClient;
  narrowed.call = ((name: string, ...rest: unknown[]) => (client.call as (...a: unknown[]) => unknown)(name === action ? `${name}NotOffered` : name, ...rest)) as CloudClient['call'];
  return narrowed;
}

describe('a certificate swap where the API does not offer UpdateSSLBinding to the account', () => {
  it('unbinds the old certificate and binds the new one, says so in the run, and the plan says both ways before', async () => {
    const c = h.resourceCtx('tls-fallback');
    const key = { privateKey: pem('PRIVATE KEY', 'a2V5'), userCert: pem('CERTIFICATE', 'Y2VydA==') };
    const [a, b] = [await lbSsl.create(c, { ...key, name: 'cert-fa' }), await lbSsl.create(c, { ...key, name: 'cert-fb' })];
    const made = await lb.create(c, { vpcId: home.vpcId, subnetId: home.subnetId, name: 'tls-fallback-lb' });
    const https = await lbListener.create(c, { lbId: made.id, protocol: 'https' });
    const inputs = { lbId: made.id, listenerId: https.outputs.listenerId, sslId: a.id };
    const bound = await lbSslAttachment.create(c, inputs);
    const [note] = lbSslAttachment.notes!.update!(inputs, { ...inputs, sslId: b.id });
    expect(note).toContain('UpdateSSLBinding');
    expect(note).toContain('UnbindSSL, BindSSL');
    expect(lbSslAttachment.notes!.update!(inputs, inputs)).toEqual([]);

    h.warnings.length = 0;
    const narrowed = { ...c, client: notOffering(c.client as CloudClient, 'UpdateSSLBinding') };
    expect(await writes(() => lbSslAttachment.update(narrowed, bound.id, { inputs, outputs: bound.outputs }, { ...inputs, sslId: b.id }))).toEqual([
      'UpdateSSLBindingNotOffered',
      'UnbindSSL',
      'BindSSL',
    ]);
    expect(h.warnings).toEqual([expect.stringContaining('the API does not offer UpdateSSLBinding to this account')]);
    const listener = await (c.client as CloudClient).call<{ DataSet: Array<{ SSLSet?: Array<{ SSLId: string }> }> }>('DescribeVServer', { ULBId: made.id, VServerId: https.outputs.listenerId });
    expect(listener.DataSet[0].SSLSet?.map((s) => s.SSLId)).toEqual([b.id]);
  });

  it('a refusal of another kind is not taken for it: nothing is unbound', async () => {
    const c = h.resourceCtx('tls-refused');
    const key = { privateKey: pem('PRIVATE KEY', 'a2V5'), userCert: pem('CERTIFICATE', 'Y2VydA==') };
    const a = await lbSsl.create(c, { ...key, name: 'cert-ra' });
    const made = await lb.create(c, { vpcId: home.vpcId, subnetId: home.subnetId, name: 'tls-refused-lb' });
    const https = await lbListener.create(c, { lbId: made.id, protocol: 'https' });
    const inputs = { lbId: made.id, listenerId: https.outputs.listenerId, sslId: a.id };
    const bound = await lbSslAttachment.create(c, inputs);
    await h.clearCalls();
    await expect(lbSslAttachment.update(c, bound.id, { inputs, outputs: bound.outputs }, { ...inputs, sslId: 'ssl-nosuch' })).rejects.toThrow(/UpdateSSLBinding/);
    expect((await h.actions()).filter((x) => !x.startsWith('Describe'))).toEqual(['UpdateSSLBinding']);
    expect(await lbSslAttachment.read(c, bound.id)).toEqual(inputs);
  });
});

describe('what the API is never sent again, and never shows', () => {
  it("a certificate's private key is sent once, with the upload, and no read, listing or output carries it", async () => {
    const c = h.resourceCtx('secret');
    const key = { privateKey: pem('PRIVATE KEY', 'dG9wLXNlY3JldA=='), userCert: pem('CERTIFICATE', 'Y2VydA==') };
    expect(lbSsl.secrets?.paths).toEqual(['privateKey']);
    const made = await lbSsl.create(c, { ...key, name: 'sealed' });
    const listed = await (c.client as CloudClient).pageAll<Record<string, unknown>>('DescribeSSL', {}, 'DataSet');
    expect(JSON.stringify(listed)).not.toContain('dG9wLXNlY3JldA');
    expect(JSON.stringify(made.outputs)).not.toContain('dG9wLXNlY3JldA');
    expect(JSON.stringify(await lbSsl.list!(c))).not.toContain('dG9wLXNlY3JldA');
  });
});

describe('the lookups answer with what the types made', () => {
  it('getLbs shows a new balancer and the EIP bound to it; getLbAttachments and getLbRules its backends and rules', async () => {
    const { c, lb: made, listener, backends } = await pool('seen');
    const ip = await eip.create(c, { name: 'lb-ip', internetType: 'bgp', bandwidth: 2 });
    await eipAssociation.create(c, { eipId: ip.id, resourceId: made.id, resourceType: 'ulb' });
    const rule = await lbRule.create(c, z.parse(lbRule.inputs, { lbId: made.id, listenerId: listener.outputs.listenerId, domain: 'shop.example.com', backendIds: [backends[0].outputs.backendId] }));
    const seen = (await run(h, getLbs, { ids: [made.id] })).lbs[0];
    expect(seen).toMatchObject({ name: 'seen', internal: false, vpcId: home.vpcId });
    expect(seen.ipSet).toEqual([expect.objectContaining({ ip: ip.outputs.publicIp })]);
    expect((await lb.read(c, made.id))!.ipAddresses).toEqual([ip.outputs.publicIp]);
    const attached = (await run(h, getLbAttachments, { loadBalancerId: made.id, listenerId: listener.outputs.listenerId })).lbAttachments;
    expect(attached.map((a: { id: string }) => a.id).sort()).toEqual(backends.map((b) => b.outputs.backendId).sort());
    const rules = (await run(h, getLbRules, { loadBalancerId: made.id, listenerId: listener.outputs.listenerId })).lbRules;
    expect(rules.map((r: { id: string }) => r.id)).toEqual([rule.outputs.ruleId]);
  });
});
