/**
 * What a plan of cloud resources can know before any order: the shape of a value the API takes
 * (a rule's source address, a domain back end, the kind an id names, a setting only one kind of
 * rule has) is refused by validate and plan at its line and column, with what would be valid; a
 * fact only the API knows (the zones of an image, the labels of the account) is read and refused
 * by plan. Nothing is sent to the API but those reads.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { testSandbox, workdir } from '../support/cli.js';
import { cloudExampleKit, cloudManifest } from '../support/cloud-example.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const { run, apply } = cloudExampleKit(() => sandbox);

const SHAPES = `name: shape-checks
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
  firewall:
    type: cloud:index/securityGroup:SecurityGroup
    properties:
      name: office
      rules:
        - { protocol: tcp, port: "22", cidrBlock: office-network }
        - { protocol: tcp, port: "443", cidrBlock: 10.0.0.300/8 }
        - { protocol: tcp, port: "80", cidrBlock: 203.0.113.7 }
        - { protocol: tcp, port: "8080", cidrBlock: 10.0.0.0/8 }
  forward:
    type: cloud:index/antiDdosRule:AntiDdosRule
    properties:
      instanceId: usecure_ghp-abc
      ip: 123.59.200.4
      port: 443
      sourceType: domain
      realServers:
        - { address: 10.0.0.1, port: 443 }
  onLb:
    type: cloud:index/eipAssociation:EipAssociation
    properties:
      eipId: eip-abc
      resourceId: uhost-abc
      resourceType: ulb
  rule:
    type: cloud:index/lbRule:LbRule
    properties:
      lbId: ulb-abc
      listenerId: vserver-abc
      backendIds: [backend-abc]
      path: /static/
      domainMatchMode: wildcard
`;

const EXPECTED = [
  'plumb.yaml:11:51: error: rules[0].cidrBlock "office-network" is not valid: an IPv4 address or range, such as 203.0.113.7 or 10.0.0.0/8',
  'plumb.yaml:12:52: error: rules[1].cidrBlock "10.0.0.300/8" is not valid: an IPv4 address or range',
  'plumb.yaml:23:22: error: realServers[0].address "10.0.0.1" is not valid: a domain name such as origin.example.com, since sourceType is domain',
  'plumb.yaml:29:21: error: resourceType "ulb" is not valid: uhost-abc is a uhost (its id\'s prefix): set resourceType uhost, or leave it out',
  'plumb.yaml:37:24: error: domainMatchMode "wildcard" is not valid: domainMatchMode is how a domain rule matches its domain: a path rule takes none',
];

describe('values whose shape the cloud API refuses are refused before any order', () => {
  it.each(['validate', 'plan'])('%s names each at its line and column and calls nothing', async (command) => {
    const dir = workdir('plumb-cloud-shapes-');
    writeFileSync(join(dir, 'plumb.yaml'), SHAPES);
    await sandbox.clearCalls();
    const checked = await run(dir, command);
    expect(checked.code).toBe(1);
    const text = checked.stdout + checked.stderr;
    for (const line of EXPECTED) expect(text).toContain(line);
    expect(text.match(/: error: /g)).toHaveLength(EXPECTED.length);
    expect(text).not.toMatch(/\n\s+at /);
    expect(await sandbox.calls('cloud')).toEqual([]);
  });
});

/** The first available image of a zone of cn-bj2. */
async function imageOf(zone: string): Promise<string> {
  const body = await signedCloudCall(sandbox.url, { Action: 'DescribeImage', Region: 'cn-bj2', ProjectId: 'org-sandbox', Zone: zone, ImageType: 'Base' });
  expect(body.RetCode).toBe(0);
  return (body.ImageSet as Array<{ ImageId: string }>)[0].ImageId;
}

const FACTS = (image: string) =>
  cloudManifest(
    'fact-checks',
    { name: 'facts-vpc', cidr: '10.50.0.0/16' },
    `  web:
    type: cloud:index/subnet:Subnet
    properties: { vpcId: "\${network.vpcId}", cidrBlock: 10.50.1.0/24 }
  host:
    type: cloud:index/instance:Instance
    properties:
      availabilityZone: cn-bj2-03
      imageId: ${image}
      cpu: 1
      memory: 2048
      bootDisk: { type: cloud_ssd, size: 40 }
      vpcId: \${network.vpcId}
      subnetId: \${web.subnetId}
      password: Passw0rd-facts
      chargeType: dynamic
  team:
    type: cloud:index/label:Label
    properties: { key: facts, value: declared }
  declaredOnVpc:
    type: cloud:index/labelAttachment:LabelAttachment
    properties: { key: facts, value: declared, resourceId: "\${network.vpcId}" }
  listedOnVpc:
    type: cloud:index/labelAttachment:LabelAttachment
    properties: { key: env, value: prod, resourceId: "\${network.vpcId}" }
  missingOnVpc:
    type: cloud:index/labelAttachment:LabelAttachment
    properties: { key: env, value: qa, resourceId: "\${network.vpcId}" }
`,
  );

describe('facts only the cloud API knows are read and refused by plan, before any order', () => {
  it('an image not offered in the zone and a label the account does not have are named at their lines, with the zones and labels there are', async () => {
    const image = await imageOf('cn-bj2-02');
    const dir = workdir('plumb-cloud-facts-');
    writeFileSync(join(dir, 'plumb.yaml'), FACTS(image));
    await sandbox.clearCalls();
    const plan = await run(dir, 'plan');
    expect(plan.code).toBe(1);
    const text = plan.stdout + plan.stderr;
    expect(text).toContain(`plumb.yaml:15:25: error: image ${image} is not offered in cn-bj2-03; it is in cn-bj2-02`);
    expect(text).toMatch(/plumb\.yaml:35:36: error: the account has no label env:qa; labels of key env: prod, staging/);
    expect(text.match(/: error: /g)).toHaveLength(2);
    const writes = (await sandbox.calls('cloud')).map((c) => String(c.query.Action)).filter((a) => !/^(Describe|Get|List)/.test(a));
    expect(writes).toEqual([]);

    // In the image's zone and with the label the account has, the same stack applies.
    writeFileSync(join(dir, 'plumb.yaml'), FACTS(image).replace('cn-bj2-03', 'cn-bj2-02').replace('value: qa', 'value: staging'));
    await apply(dir);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });
});
