/** The anti-DDoS IP and rule types' and the label types' own rules: which Action each change sends, what replaces, what is refused, what the lookups see. */
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathMatches } from '../../../src/engine/planning/diff/diff.js';
import { getAntiDdosIps } from '../../../src/lookups/cloud/get-anti-ddos-ips.js';
import { antiDdosInstance } from '../../../src/resources/cloud/anti-ddos-instance.js';
import { antiDdosIp } from '../../../src/resources/cloud/anti-ddos-ip.js';
import { antiDdosRule, antiDdosRuleInputs, type AntiDdosRuleInputs } from '../../../src/resources/cloud/anti-ddos-rule.js';
import { label } from '../../../src/resources/cloud/label.js';
import { labelAttachment } from '../../../src/resources/cloud/label-attachment.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { run } from '../../support/cloud-lookup-kit.js';

let h: Harness;
let instanceId: string;
beforeAll(async () => {
  h = await startHarness();
  const sizing = { name: 'types-shield', area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40, chargeType: 'month', duration: 1 };
  instanceId = (await antiDdosInstance.create(h.resourceCtx('shield'), z.parse(antiDdosInstance.inputs, sizing))).id;
});
afterAll(() => h.close());

/** The Actions `act` sends, in order, reads left out. */
async function writes(act: () => Promise<unknown>): Promise<string[]> {
  await h.clearCalls();
  await act();
  return (await h.actions()).filter((a) => !/^(Get|Describe|List)/.test(a));
}

describe('anti-DDoS service IPs', () => {
  it('a new remark is one SetNapIpRemark call, and the lookup lists the IP with it', async () => {
    const c = h.resourceCtx('ip');
    const made = await antiDdosIp.create(c, { instanceId, remark: 'web' });
    expect(made.outputs).toMatchObject({ remark: 'web', status: 'Success' });
    expect(await writes(() => antiDdosIp.update(c, made.id, { inputs: { instanceId, remark: 'web' }, outputs: made.outputs }, { instanceId, remark: 'web v2' }))).toEqual(['SetNapIpRemark']);
    const listed = await run(h, getAntiDdosIps, { instanceId });
    expect(listed.ips).toContainEqual(expect.objectContaining({ ip: made.outputs.ip, comment: 'web v2', status: 'Success' }));
  });

  it('an IP that still forwards through a rule is not deleted; the API says to delete the rules first', async () => {
    const c = h.resourceCtx('ip');
    const made = await antiDdosIp.create(c, { instanceId });
    await antiDdosRule.create(c, antiDdosRuleInputs.parse({ instanceId, ip: made.outputs.ip, realServers: [{ address: '10.0.0.1' }] }));
    await expect(antiDdosIp.delete(c, made.id, { inputs: { instanceId }, outputs: made.outputs })).rejects.toThrow(/delete them first/);
  });

  it('a bulk read of three IPs and one that is not there is one GetBGPServiceIP listing', async () => {
    const c = h.resourceCtx('ip');
    const made = [await antiDdosIp.create(c, { instanceId }), await antiDdosIp.create(c, { instanceId }), await antiDdosIp.create(c, { instanceId })];
    const warn = () => {};
    await h.clearCalls();
    const seen = await antiDdosIp.readMany!(c, [...made.map((m) => ({ id: m.id, warn })), { id: `${instanceId}/192.0.2.1`, warn }]);
    expect(await h.actions()).toEqual(['GetBGPServiceIP']);
    expect(made.map((m) => seen.get(m.id)?.ip)).toEqual(made.map((m) => m.outputs.ip));
    expect(seen.has(`${instanceId}/192.0.2.1`)).toBe(false);
  });

  it('a create waits through Pending until the platform has set the IP up', async () => {
    const slow = await startHarness({ provisioningMs: 300 });
    try {
      const sizing = { name: 'slow-shield', area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40, chargeType: 'month', duration: 1 };
      const owner = (await antiDdosInstance.create(slow.resourceCtx('shield'), z.parse(antiDdosInstance.inputs, sizing))).id;
      const made = await antiDdosIp.create(slow.resourceCtx('ip'), { instanceId: owner, remark: 'slow' });
      expect(slow.progress).toContain('Pending');
      expect(made.outputs).toMatchObject({ status: 'Success', remark: 'slow' });
      expect(slow.recorded).toContain(made.id);
    } finally {
      await slow.close();
    }
  });

  it('import ids are <instance_id>/<ip>', () => {
    expect(antiDdosIp.importId!.parse(` ${instanceId}/123.59.200.4 `)).toBe(`${instanceId}/123.59.200.4`);
    expect(() => antiDdosIp.importId!.parse('123.59.200.4')).toThrow('<instance_id>/<ip>');
  });
});

describe('anti-DDoS forwarding rules', () => {
  const base = (ip: string): AntiDdosRuleInputs => antiDdosRuleInputs.parse({ instanceId, ip, port: 443, realServers: [{ address: '10.0.0.1', port: 8443 }], remark: 'https' });

  it('new ports and back ends are one UpdateBGPServiceFwdRule; a new remark alone is one SetNapFwdRuleRemark', async () => {
    const c = h.resourceCtx('rule');
    const { ip } = (await antiDdosIp.create(c, { instanceId })).outputs;
    const inputs = base(ip);
    const made = await antiDdosRule.create(c, inputs);
    const moved = { ...inputs, port: 8443, realServers: [...inputs.realServers, { address: '10.0.0.2', port: 8443 }], backupServer: { ip: '10.0.0.9', port: 8443 } };
    expect(await writes(() => antiDdosRule.update(c, made.id, { inputs, outputs: made.outputs }, moved))).toEqual(['UpdateBGPServiceFwdRule']);
    const seen = await antiDdosRule.read(c, made.id);
    expect(seen).toMatchObject({ port: 8443, loadBalance: true, realServers: moved.realServers, backupServer: moved.backupServer, status: 'Success' });
    expect(await writes(() => antiDdosRule.update(c, made.id, { inputs: moved, outputs: seen! }, { ...moved, remark: 'moved' }))).toEqual(['SetNapFwdRuleRemark']);
    expect((await antiDdosRule.read(c, made.id))?.remark).toBe('moved');
  });

  const forced: Array<[string, string]> = [
    ['instanceId', 'a rule belongs to one anti-DDoS instance'],
    ['ip', 'UpdateBGPServiceFwdRule takes the service IP only to find the rule'],
    ['sourceType', 'UpdateBGPServiceFwdRule takes no SourceType'],
  ];
  for (const [path, why] of forced) {
    it(`a new ${path} replaces the rule: ${why}`, () => {
      expect(antiDdosRule.replace.on.find((r) => pathMatches(path, r.path))?.reason).toContain(why);
    });
  }

  it('port, back ends, TOA, detection, backup and remark never replace a rule by themselves (the API updates them)', () => {
    for (const path of ['port', 'realServers', 'toaId', 'detection', 'backupServer', 'remark']) expect(antiDdosRule.replace.on.some((r) => pathMatches(path, r.path))).toBe(false);
  });

  it('dropping the backup server replaces the rule: no update can clear it', () => {
    const withBackup = { ...base('123.59.200.1'), backupServer: { ip: '10.0.0.9', port: 8443 } };
    expect(antiDdosRule.replace.when!.rules(withBackup, base('123.59.200.1'))).toEqual([expect.objectContaining({ path: 'backupServer' })]);
    expect(antiDdosRule.replace.when!.rules(base('123.59.200.1'), withBackup)).toEqual([]);
  });

  it('refuses, naming each path, a TCP back end without a port, an IP rule with one, and several back ends without a backup', () => {
    const result = antiDdosRuleInputs.safeParse({ instanceId, ip: '123.59.200.1', port: 80, realServers: [{ address: '10.0.0.1' }, { address: 'not-an-ip', port: 80 }] });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        'realServers.0.port: a TCP rule (port set) needs the back-end port',
        'realServers.1.address: an IPv4 address (or set sourceType: domain)',
        'backupServer: required with several back ends (load balancing) or with detection: true',
      ]),
    );
    const ipRule = antiDdosRuleInputs.safeParse({ instanceId, ip: '123.59.200.1', realServers: [{ address: '10.0.0.1', port: 80 }] });
    expect(ipRule.error?.issues[0].message).toMatch(/IP rule .* leave the back-end port out/);
  });
});

describe('labels and attachments', () => {
  it('a label that exists already is not created but named for import', async () => {
    await expect(label.create(h.resourceCtx('owner'), { key: 'owner', value: 'nobody' })).rejects.toThrow('plumb import (id owner#nobody)');
  });

  it('binds a label to a VPC in one BindLabels call; a bound label is not deleted until unbound', async () => {
    const c = h.resourceCtx('labels');
    const home = await vpc.create(c, { name: 'labelled', cidrBlocks: ['10.90.0.0/16'] });
    const made = await label.create(c, { key: 'app', value: 'shop' });
    const inputs = { key: 'app', value: 'shop', resourceId: home.id };
    let bound: Awaited<ReturnType<typeof labelAttachment.create>> | undefined;
    expect(
      await writes(async () => {
        bound = await labelAttachment.create(c, inputs);
      }),
    ).toEqual(['BindLabels']);
    expect(bound!.id).toBe(`app#shop#${home.id}`);
    expect((await label.read(c, made.id))?.resourceCount).toBe(1);
    await expect(label.delete(c, made.id, { inputs: { key: 'app', value: 'shop' }, outputs: made.outputs })).rejects.toThrow(/unbind it first/);
    await labelAttachment.delete(c, bound!.id, { inputs, outputs: bound!.outputs });
    await label.delete(c, made.id, { inputs: { key: 'app', value: 'shop' }, outputs: made.outputs });
    expect(await label.read(c, made.id)).toBeUndefined();
  });

  it('a bulk read of attachments on two resources is one ListLabelsByResourceIds call', async () => {
    const c = h.resourceCtx('labels');
    const made = await label.create(c, { key: 'bulk', value: 'read' });
    const vpcs = [await vpc.create(c, { name: 'bulk-a', cidrBlocks: ['10.91.0.0/16'] }), await vpc.create(c, { name: 'bulk-b', cidrBlocks: ['10.92.0.0/16'] })];
    const bound = await Promise.all(vpcs.map((v) => labelAttachment.create(c, { key: 'bulk', value: 'read', resourceId: v.id })));
    const warn = () => {};
    await h.clearCalls();
    const seen = await labelAttachment.readMany!(c, [...bound.map((b) => ({ id: b.id, warn })), { id: `bulk#other#${vpcs[0].id}`, warn }]);
    expect(await h.actions()).toEqual(['ListLabelsByResourceIds']);
    expect(bound.map((b) => seen.get(b.id)?.resourceId)).toEqual(vpcs.map((v) => v.id));
    expect(seen.has(`bulk#other#${vpcs[0].id}`)).toBe(false);
    expect((await label.read(c, made.id))?.resourceCount).toBe(2);
  });

  it('import ids are <key>#<value> and <key>#<value>#<resource_id>', () => {
    expect(label.importId!.parse('env#prod')).toBe('env#prod');
    expect(() => label.importId!.parse('env')).toThrow('<key>#<value>');
    expect(() => labelAttachment.importId!.parse('env#prod')).toThrow('<key>#<value>#<resource_id>');
  });
});
