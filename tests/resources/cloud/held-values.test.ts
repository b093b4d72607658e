/**
 * What the cloud API lets one object hold at a time, declared as claims (ResourceType.holds) so
 * that a replacement keeping it is ordered delete-first. A reviewed table names, for every
 * registered cloud type, what its objects hold and the API's refusal of a second holder; a type
 * added without an entry fails here until someone has looked at what the API holds unique for it.
 */
import { describe, expect, it } from 'vitest';
import { claimsOf } from '../../../src/engine/planning/claims.js';
import { loadResourceTypes } from '../../../src/cli/catalog.js';
import { Unknown } from '../../../src/kernel/values.js';

/** For each cloud type: what it holds (claim `what`s), with the API's refusal of a second holder; empty where nothing is held. */
const HELD: Record<string, Record<string, string>> = {
  'cloud:index/antiDdosAllowedDomain:AntiDdosAllowedDomain': { 'allowed domain of an anti-DDoS instance': 'a domain is listed once per instance' },
  'cloud:index/antiDdosInstance:AntiDdosInstance': {},
  'cloud:index/antiDdosIp:AntiDdosIp': {},
  'cloud:index/antiDdosRule:AntiDdosRule': { 'forwarded port of an anti-DDoS IP': 'BgpIPPort: the IP already forwards the port' },
  'cloud:index/diskAttachment:DiskAttachment': { 'attachment of a disk': 'a disk is attached to one host (17026)' },
  'cloud:index/disk:Disk': {},
  'cloud:index/eipAssociation:EipAssociation': { 'binding of an EIP': 'EIP already bound (4154)' },
  'cloud:index/eip:Eip': {},
  'cloud:index/instance:Instance': {},
  'cloud:index/labelAttachment:LabelAttachment': { 'label on a resource': 'a resource carries a label once' },
  'cloud:index/label:Label': { label: 'a key and value is one label of the account' },
  'cloud:index/lbAttachment:LbAttachment': { 'port of an instance on a listener': 'instance already a backend on the port (4109)' },
  'cloud:index/lbListener:LbListener': { 'port on a load balancer': 'port already used by a VServer (4107)' },
  'cloud:index/lbRule:LbRule': {},
  'cloud:index/lbSslAttachment:LbSslAttachment': { 'certificate of a listener': 'listener already has a certificate (BindSSL)' },
  'cloud:index/lbSsl:LbSsl': {},
  'cloud:index/lb:Lb': {},
  'cloud:index/natGatewayRule:NatGatewayRule': { 'forwarded port of an EIP': 'SrcPort already forwarded by a policy' },
  'cloud:index/natGateway:NatGateway': { 'binding of an EIP': 'EIP already bound (4154)' },
  'cloud:index/securityGroup:SecurityGroup': {},
  'cloud:index/subnet:Subnet': { 'address range in a VPC': 'range overlaps a subnet (230)' },
  'cloud:index/vpc:Vpc': {},
  'cloud:index/vpnConnection:VpnConnection': {},
  'cloud:index/vpnCustomerGateway:VpnCustomerGateway': {},
  'cloud:index/vpnGateway:VpnGateway': { 'binding of an EIP': 'EIP already bound (4154)' },
};

const cloud = [...(await loadResourceTypes(['cloud'])).values()];

describe('what the cloud API holds unique is declared on every type', () => {
  it.each(cloud.map((t) => [t.token, t] as const))('%s declares what the API lets one object hold at a time', (token, type) => {
    expect(HELD, `${token} has no entry: review what the API refuses a second object of (a port, a binding, a range, a name) and declare it in holds`).toHaveProperty([token]);
    expect((type.replace.holds ?? []).map((c) => c.what).sort()).toEqual(Object.keys(HELD[token]).sort());
  });

  it('every entry of the table is a registered type', () => {
    expect(Object.keys(HELD).filter((t) => !cloud.some((c) => c.token === t))).toEqual([]);
  });
});

describe('claims whose value is the API default', () => {
  const listener = cloud.find((t) => t.token === 'cloud:index/lbListener:LbListener')!;
  const keys = (inputs: Record<string, unknown>) => claimsOf(listener, inputs).map((h) => h.key);

  it("a listener's port left out is the one its protocol defaults to, and UDP ports are apart from the others", () => {
    expect(keys({ lbId: 'ulb-1' })).toEqual(['port on a load balancer: ulb-1 80 tcp']);
    expect(keys({ lbId: 'ulb-1', protocol: 'https' })).toEqual(['port on a load balancer: ulb-1 443 tcp']);
    expect(keys({ lbId: 'ulb-1', protocol: 'tcp' })).toEqual(keys({ lbId: 'ulb-1', protocol: 'http', port: 1024 }));
    expect(keys({ lbId: 'ulb-1', protocol: 'udp' })).toEqual(['port on a load balancer: ulb-1 1024 udp']);
  });

  it('a protocol not known yet holds no port', () => {
    expect(keys({ lbId: 'ulb-1', protocol: new Unknown() })).toEqual([]);
  });
});
