/** Lifecycle specs of the cloud load balancer types (balancer, listener, backend, rule, certificate, its binding). */
import * as z from 'zod';
import { expect } from 'vitest';
import type { CloudClient } from '../../../src/providers/cloud/index.js';
import { lb } from '../../../src/resources/cloud/lb.js';
import { lbAttachment } from '../../../src/resources/cloud/lb-attachment.js';
import { lbListener } from '../../../src/resources/cloud/lb-listener.js';
import { lbRule } from '../../../src/resources/cloud/lb-rule.js';
import { lbSsl } from '../../../src/resources/cloud/lb-ssl.js';
import { lbSslAttachment } from '../../../src/resources/cloud/lb-ssl-attachment.js';
import { securityGroup } from '../../../src/resources/cloud/security-group.js';
import { subnet } from '../../../src/resources/cloud/subnet.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { lifecycleSpec, type LifecycleWorld, type MakeContext } from '../../support/lifecycle.js';

/** Where the suite's balancers go. */
interface Home {
  vpcId: string;
  subnetId: string;
  otherSubnetId: string;
}

/** A VPC with two subnets. */
async function makeHome(ctx: MakeContext, name: string, range: number): Promise<Home> {
  const c = await ctx(name);
  const home = await vpc.create(c, { name, cidrBlocks: [`10.${range}.0.0/16`] });
  const [a, b] = [await subnet.create(c, { vpcId: home.id, cidrBlock: `10.${range}.1.0/24` }), await subnet.create(c, { vpcId: home.id, cidrBlock: `10.${range}.2.0/24` })];
  return { vpcId: home.id, subnetId: a.id, otherSubnetId: b.id };
}

/** The balancers the API lists, and what `nested` picks out of each (its own id by default). */
async function inLbs(world: LifecycleWorld, nested: (lb: Record<string, any>) => string[] = (l) => [l.ULBId]): Promise<string[]> {
  const client = (await world.ctx('census')).client as CloudClient;
  return (await client.pageAll<Record<string, any>>('DescribeULB', {}, 'DataSet')).flatMap(nested);
}

/** The listeners of a balancer as `<lb_id>/<vserver_id>`. */
const listenersOf = (lbId: string) => (l: Record<string, any>) => (l.ULBId === lbId ? (l.VServerSet ?? []).map((v: any) => `${lbId}/${v.VServerId}`) : []);

/** The lifecycle spec of Lb: name, tag and remark change in place; another subnet replaces it. */
export const lbSpec = lifecycleSpec({
  type: lb,
  async setup(ctx) {
    const home = await makeHome(ctx, 'lb-home', 130);
    const group = await securityGroup.create(await ctx('lb-home'), { name: 'suite-lb-fw', rules: [{ protocol: 'tcp', port: '443' }] });
    return { ...home, securityGroupId: group.id };
  },
  create: (h: Home & { securityGroupId: string }) => ({ vpcId: h.vpcId, subnetId: h.subnetId, name: 'suite-lb' }),
  update: (h) => ({ vpcId: h.vpcId, subnetId: h.subnetId, name: 'suite-lb-2', tag: 'edge', remark: 'front door', securityGroupId: h.securityGroupId }),
  replace: (h) => ({ vpcId: h.vpcId, subnetId: h.otherSubnetId, name: 'suite-lb' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({
      vpcId: inputs.vpcId,
      subnetId: inputs.subnetId,
      name: inputs.name,
      tag: inputs.tag ?? 'Default',
      remark: inputs.remark ?? '',
      internal: false,
      listenType: 'request_proxy',
      securityGroupId: inputs.securityGroupId ?? '',
    });
  },
  badImportId: 'lb-1',
  ghostId: () => 'ulb-00000000',
  createCall: 'Action=CreateULB',
  census: (world) => inLbs(world),
});

/** A balancer of the suite's own, and two seeded instances to serve behind it. */
interface Balancer extends Home {
  lbId: string;
  hosts: [string, string];
}

async function makeBalancer(ctx: MakeContext, name: string, range: number): Promise<Balancer> {
  const home = await makeHome(ctx, name, range);
  const c = await ctx(`${name}-lb`);
  const made = await lb.create(c, { vpcId: home.vpcId, subnetId: home.subnetId, name });
  const hosts = await (c.client as CloudClient).pageAll<{ UHostId: string }>('DescribeUHostInstance', {}, 'UHostSet');
  return { ...home, lbId: made.id, hosts: [hosts[0].UHostId, hosts[1].UHostId] };
}

/** The lifecycle spec of LbListener: name, method, persistence and health check change in place; the port replaces it. */
export const lbListenerSpec = lifecycleSpec({
  type: lbListener,
  setup: (ctx) => makeBalancer(ctx, 'listener-home', 131),
  create: (b: Balancer) => ({ lbId: b.lbId, protocol: 'http' as const, port: 80, name: 'suite-http' }),
  update: (b) => ({
    lbId: b.lbId,
    protocol: 'http' as const,
    port: 80,
    name: 'suite-http-2',
    method: 'source' as const,
    persistenceType: 'user_defined' as const,
    persistence: 'SESSIONID',
    idleTimeout: 120,
    healthCheckType: 'path' as const,
    domain: 'www.example.com',
    path: '/healthz',
  }),
  replace: (b) => ({ lbId: b.lbId, protocol: 'http' as const, port: 8080, name: 'suite-http' }),
  another: (b) => ({ lbId: b.lbId, protocol: 'tcp' as const, port: 9000, name: 'suite-tcp' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({
      lbId: inputs.lbId,
      protocol: inputs.protocol,
      port: inputs.port,
      name: inputs.name,
      method: inputs.method ?? 'roundrobin',
      persistenceType: inputs.persistenceType ?? 'none',
      idleTimeout: inputs.idleTimeout ?? 60,
      healthCheckType: inputs.healthCheckType ?? 'port',
      path: inputs.path ?? '',
    });
  },
  badImportId: 'vserver-1a2b3c4d',
  ghostId: (b) => `${b.lbId}/vserver-00000000`,
  createCall: 'Action=CreateVServer',
  census: (world, b) => inLbs(world, listenersOf(b.lbId)),
});

/** A balancer with an HTTP listener. */
interface Listener extends Balancer {
  listenerId: string;
}

async function makeListener(ctx: MakeContext, name: string, range: number): Promise<Listener> {
  const b = await makeBalancer(ctx, name, range);
  const made = await lbListener.create(await ctx(`${name}-listener`), { lbId: b.lbId, protocol: 'http', port: 80 });
  return { ...b, listenerId: made.outputs.listenerId };
}

/** The backends of a listener as `<lb_id>/<vserver_id>/<backend_id>`. */
const backendsOf = (l: Listener) => (lbRec: Record<string, any>) =>
  lbRec.ULBId === l.lbId ? (lbRec.VServerSet ?? []).filter((v: any) => v.VServerId === l.listenerId).flatMap((v: any) => v.BackendSet.map((x: any) => `${l.lbId}/${l.listenerId}/${x.BackendId}`)) : [];

/** The lifecycle spec of LbAttachment: port, weight, enabled and backup change in place; another instance replaces it. */
export const lbAttachmentSpec = lifecycleSpec({
  type: lbAttachment,
  setup: (ctx) => makeListener(ctx, 'backend-home', 132),
  create: (l: Listener) => ({ lbId: l.lbId, listenerId: l.listenerId, resourceId: l.hosts[0], port: 8080 }),
  update: (l) => ({ lbId: l.lbId, listenerId: l.listenerId, resourceId: l.hosts[0], port: 8081, weight: 20, enabled: false, backup: true }),
  replace: (l) => ({ lbId: l.lbId, listenerId: l.listenerId, resourceId: l.hosts[1], port: 8080 }),
  another: (l) => ({ lbId: l.lbId, listenerId: l.listenerId, resourceId: l.hosts[1], port: 8080 }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({
      lbId: inputs.lbId,
      listenerId: inputs.listenerId,
      resourceId: inputs.resourceId,
      port: inputs.port ?? 80,
      weight: inputs.weight ?? 1,
      enabled: inputs.enabled ?? true,
      backup: inputs.backup ?? false,
    });
  },
  badImportId: 'backend-1a2b3c4d',
  ghostId: (l) => `${l.lbId}/${l.listenerId}/backend-00000000`,
  createCall: 'Action=AllocateBackend',
  census: (world, l) => inLbs(world, backendsOf(l)),
});

/** A listener with two backends for rules to forward to. */
interface Pool extends Listener {
  backends: [string, string];
}

async function makePool(ctx: MakeContext): Promise<Pool> {
  const l = await makeListener(ctx, 'rule-home', 133);
  const c = await ctx('rule-pool');
  const backend = async (host: string) => (await lbAttachment.create(c, { lbId: l.lbId, listenerId: l.listenerId, resourceId: host, port: 8080 })).outputs.backendId;
  return { ...l, backends: [await backend(l.hosts[0]), await backend(l.hosts[1])] };
}

/** The rules of a listener as `<lb_id>/<vserver_id>/<policy_id>`. */
const rulesOf = (l: Listener) => (lbRec: Record<string, any>) =>
  lbRec.ULBId === l.lbId ? (lbRec.VServerSet ?? []).filter((v: any) => v.VServerId === l.listenerId).flatMap((v: any) => v.PolicySet.map((p: any) => `${l.lbId}/${l.listenerId}/${p.PolicyId}`)) : [];

/** The lifecycle spec of LbRule: its match and its backends change in place; another listener replaces it. */
export const lbRuleSpec = lifecycleSpec({
  type: lbRule,
  setup: makePool,
  create: (p: Pool) => z.parse(lbRule.inputs, { lbId: p.lbId, listenerId: p.listenerId, path: '/static/', backendIds: [p.backends[0]] }),
  update: (p) => z.parse(lbRule.inputs, { lbId: p.lbId, listenerId: p.listenerId, path: '/assets/', backendIds: [p.backends[0], p.backends[1]], priority: 5 }),
  another: (p) => z.parse(lbRule.inputs, { lbId: p.lbId, listenerId: p.listenerId, domain: 'api.example.com', backendIds: [p.backends[1]] }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ lbId: inputs.lbId, listenerId: inputs.listenerId, ...(inputs.path ? { path: inputs.path } : { domain: inputs.domain }) });
    expect([...(outputs.backendIds as string[])].sort()).toEqual([...inputs.backendIds].sort());
    if (inputs.priority !== undefined) expect(outputs.priority).toBe(inputs.priority);
  },
  badImportId: 'policy-1a2b3c4d',
  ghostId: (p) => `${p.lbId}/${p.listenerId}/policy-00000000`,
  createCall: 'Action=CreatePolicy',
  census: (world, p) => inLbs(world, rulesOf(p)),
});

/** A PEM block of the given kind, as a sandbox-only stand-in. */
export const pem = (kind: string, body: string) => `-----BEGIN ${kind}-----\n${body}\n-----END ${kind}-----`;
const cert = { privateKey: pem('PRIVATE KEY', 'c3VpdGUta2V5'), userCert: pem('CERTIFICATE', 'c3VpdGUtY2VydA==') };

/** The certificates the API lists. */
async function certificates(world: LifecycleWorld, pick: (s: Record<string, any>) => string[]): Promise<string[]> {
  const client = (await world.ctx('census')).client as CloudClient;
  return (await client.pageAll<Record<string, any>>('DescribeSSL', {}, 'DataSet')).flatMap(pick);
}

/** The lifecycle spec of LbSsl: renamed in place; another key replaces it. */
export const lbSslSpec = lifecycleSpec({
  type: lbSsl,
  create: () => ({ ...cert, name: 'suite-cert' }),
  update: () => ({ ...cert, name: 'suite-cert-2' }),
  replace: () => ({ ...cert, privateKey: pem('PRIVATE KEY', 'b3RoZXIta2V5'), name: 'suite-cert' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ name: inputs.name });
    expect(JSON.stringify(outputs)).not.toContain('PRIVATE KEY');
  },
  badImportId: 'cert-1',
  ghostId: () => 'ssl-00000000',
  createCall: 'Action=CreateSSL',
  census: (world) => certificates(world, (s) => [s.SSLId]),
});

/** Two HTTPS listeners and two certificates of the suite's own. */
interface Tls {
  lbId: string;
  listeners: [string, string];
  certs: [string, string];
}

async function makeTls(ctx: MakeContext): Promise<Tls> {
  const b = await makeBalancer(ctx, 'tls-home', 134);
  const c = await ctx('tls');
  const listener = async (port: number) => (await lbListener.create(c, { lbId: b.lbId, protocol: 'https', port })).outputs.listenerId;
  const upload = async (name: string) => (await lbSsl.create(c, { ...cert, name })).id;
  return { lbId: b.lbId, listeners: [await listener(443), await listener(8443)], certs: [await upload('tls-a'), await upload('tls-b')] };
}

/** The lifecycle spec of LbSslAttachment: the certificate is swapped in place; another listener replaces the binding. */
export const lbSslAttachmentSpec = lifecycleSpec({
  type: lbSslAttachment,
  setup: makeTls,
  create: (t: Tls) => ({ lbId: t.lbId, listenerId: t.listeners[0], sslId: t.certs[0] }),
  update: (t) => ({ lbId: t.lbId, listenerId: t.listeners[0], sslId: t.certs[1] }),
  replace: (t) => ({ lbId: t.lbId, listenerId: t.listeners[1], sslId: t.certs[0] }),
  another: (t) => ({ lbId: t.lbId, listenerId: t.listeners[1], sslId: t.certs[1] }),
  reflects(outputs, inputs) {
    expect(outputs).toEqual({ lbId: inputs.lbId, listenerId: inputs.listenerId, sslId: inputs.sslId });
  },
  badImportId: 'ssl-1a2b3c4d',
  ghostId: (t) => `${t.lbId}/vserver-00000000`,
  createCall: 'Action=BindSSL',
  census: (world, t) => certificates(world, (s) => (s.BindedTargetSet ?? []).filter((b: any) => b.ULBId === t.lbId).map((b: any) => `${b.ULBId}/${b.VServerId}`)),
});

/** Every load balancer type's spec. */
export const lbSpecs = [lbSpec, lbListenerSpec, lbAttachmentSpec, lbRuleSpec, lbSslSpec, lbSslAttachmentSpec];
