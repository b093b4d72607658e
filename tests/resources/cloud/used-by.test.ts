/**
 * What uses a cloud object and makes the API refuse its delete (ReplaceRules.usedBy), declared
 * where it matters: on every type whose objects hold something unique (a replacement of one keeping
 * it must delete first), for each type that names it in an input changed in place (a dependant
 * the plan keeps). A reviewed table names, for every registered cloud type that holds something,
 * those users and the API's refusal; a type added with a claim and without an entry fails here
 * until someone has looked at what the API refuses to delete while it is used.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../../src/engine/contracts/resource-type.js';
import { loadResourceTypes } from '../../../src/cli/catalog.js';

/** For each cloud type that holds something: `<user token> <path>` → the refusal's code; empty where no kept user blocks its delete. */
const USED_BY: Record<string, Record<string, string>> = {
  'cloud:index/antiDdosAllowedDomain:AntiDdosAllowedDomain': {},
  'cloud:index/antiDdosRule:AntiDdosRule': {},
  'cloud:index/diskAttachment:DiskAttachment': {},
  'cloud:index/eipAssociation:EipAssociation': {},
  'cloud:index/labelAttachment:LabelAttachment': {},
  // A label attachment names its label by key and value, both of which replace it.
  'cloud:index/label:Label': {},
  'cloud:index/lbAttachment:LbAttachment': { 'cloud:index/lbRule:LbRule backendIds[]': '4110' },
  // Backends and certificates name their listener by an input that replaces them: they go with it.
  'cloud:index/lbListener:LbListener': {},
  'cloud:index/lbSslAttachment:LbSslAttachment': {},
  'cloud:index/natGatewayRule:NatGatewayRule': {},
  // Its rules name it by natGatewayId, which replaces them.
  'cloud:index/natGateway:NatGateway': {},
  'cloud:index/subnet:Subnet': { 'cloud:index/natGateway:NatGateway subnetIds[]': '4411' },
  'cloud:index/vpnGateway:VpnGateway': {},
};

const all = await loadResourceTypes();
const cloud = [...all.values()].filter((t) => t.provider === 'cloud');

/** The top-level keys of a type's input or output schema. */
function keys(schema: unknown): string[] {
  const s = schema as { shape?: Record<string, unknown>; _zod?: { def?: { shape?: Record<string, unknown> } } };
  return Object.keys(s.shape ?? s._zod?.def?.shape ?? {});
}

describe('what blocks the delete of an object that holds something is declared on every cloud type', () => {
  it.each(cloud.filter((t) => t.replace.holds?.length).map((t) => [t.token, t] as const))('%s declares the kept users whose use the API refuses its delete for', (token, type) => {
    expect(
      USED_BY,
      `${token} holds something and has no entry: review which types name it in an input changed in place and whether the API refuses its delete while they do, and declare them in usedBy`,
    ).toHaveProperty([token]);
    const declared = Object.fromEntries((type.replace.usedBy ?? []).map((u) => [`${u.token} ${u.path}`, u.refusal.match(/\((\w+)\)$/)?.[1]]));
    expect(declared).toEqual(USED_BY[token]);
  });

  it('every entry of the table is a registered type that holds something', () => {
    expect(Object.keys(USED_BY).filter((t) => !cloud.some((c) => c.token === t && c.replace.holds?.length))).toEqual([]);
  });
});

describe('every usedBy of every registered type can take effect', () => {
  const uses = [...all.values()].flatMap((type: ResourceType) => (type.replace.usedBy ?? []).map((use) => [`${type.token} by ${use.token} ${use.path}`, type, use] as const));

  it.each(uses)('%s: a registered user, an input of it changed in place, an output of the used type, a claim to keep, a refusal with its code', (_name, type, use) => {
    const user = all.get(use.token);
    expect(user, `${use.token} is not registered`).toBeDefined();
    const field = use.path.split(/[.[]/)[0];
    expect(keys(user!.inputs)).toContain(field);
    // An input that replaces the user takes it off the old object with its own delete: no block.
    expect(user!.replace.on.map((r) => r.path)).not.toContain(field);
    if (use.output !== undefined) expect(keys(type.outputs)).toContain(use.output);
    expect(type.replace.holds?.length, `${type.token} holds nothing: its replacement is made create-first, and the use never blocks it`).toBeGreaterThan(0);
    expect(use.refusal).toMatch(/^the API refuses .+ \(\w+\)$/);
  });
});
