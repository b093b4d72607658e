/**
 * What a plan of cloud resources can know before any order: the shape of a value the API takes
 * (a rule's source address, a domain back end, the kind an id names, a setting only one kind of
 * rule has) is refused by validate and plan at its line and column, with what would be valid, and
 * nothing is sent to the API.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testSandbox, workdir } from '../support/cli.js';
import { cloudExampleKit } from '../support/cloud-example.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const { run } = cloudExampleKit(() => sandbox);

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
