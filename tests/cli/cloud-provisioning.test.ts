/**
 * The cloud API lists a new VPC, subnet, security group, EIP, load balancer, NAT or VPN gateway,
 * VPN connection, customer gateway or anti-DDoS instance only once it is provisioned. An order it
 * accepted but does not list yet — a create whose wait ran out, an apply killed while it waited,
 * or killed before the order's answer came back — is waited for by the next apply, run at once:
 * never bought a second time. Judged by what the sandbox lists through the API, as anyone sees it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { crashAfterRecords, PLUMB, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';

/** How long the sandbox takes to list a new object; a create waits 2 s, so the second apply's wait always sees it. */
const PROVISIONING_MS = 3000;

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
const run = (dir: string, ...args: string[]) => plumb(args, { cwd: dir, env: sandbox.env });
const state = (dir: string) => JSON.parse(readFileSync(stateFile(dir), 'utf8')) as { resources: Record<string, { id: string; status: string }>; pending?: unknown[] };

const CONFIG = 'config:\n  cloud:region: cn-bj2\n  cloud:projectId: org-sandbox\n';

/** What the objects under test are made in: made at once, before the sandbox turns slow. */
interface Base {
  vpc: string;
  web: string;
  data: string;
  firewall: string;
  vpnGateway: string;
  office: string;
}

const BASE = `name: provisioning-base
${CONFIG}resources:
  vpc: { type: cloud:Vpc, properties: { name: base-vpc, cidrBlocks: [10.70.0.0/16] } }
  web: { type: cloud:Subnet, properties: { vpcId: "\${vpc.vpcId}", cidrBlock: 10.70.1.0/24, name: base-web } }
  data: { type: cloud:Subnet, properties: { vpcId: "\${vpc.vpcId}", cidrBlock: 10.70.2.0/24, name: base-data } }
  firewall: { type: cloud:SecurityGroup, properties: { name: base-fw, rules: [{ protocol: tcp, port: "22" }] } }
  vpnIp: { type: cloud:Eip, properties: { name: base-vpn-ip, internetType: bgp, bandwidth: 10, chargeType: dynamic } }
  vpnGateway: { type: cloud:VpnGateway, properties: { vpcId: "\${vpc.vpcId}", eipId: "\${vpnIp.eipId}", grade: standard, chargeType: dynamic, name: base-vpn } }
  office: { type: cloud:VpnCustomerGateway, properties: { ipAddress: 203.0.113.60, name: base-office } }
`;

beforeAll(async () => {
  sandbox = await testSandbox();
  const dir = workdir('plumb-provisioning-base-');
  writeManifest(dir, 'plumb.yaml', BASE);
  const applied = await run(dir, 'apply', '--yes');
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  const ids = Object.fromEntries(Object.entries(state(dir).resources).map(([address, r]) => [address, r.id]));
  base = ids as unknown as Base;
  await sandbox.settings({ provisioningMs: PROVISIONING_MS });
}, 60_000);
afterAll(() => sandbox.close());

let base: Base;

/** Each kind under test: how the API lists it, and the field holding its name. */
const KINDS = {
  vpc: { action: 'DescribeVPC', list: 'DataSet', id: 'VPCId', name: 'Name' },
  subnet: { action: 'DescribeSubnet', list: 'DataSet', id: 'SubnetId', name: 'SubnetName' },
  firewall: { action: 'DescribeFirewall', list: 'DataSet', id: 'FWId', name: 'Name' },
  eip: { action: 'DescribeEIP', list: 'EIPSet', id: 'EIPId', name: 'Name' },
  lb: { action: 'DescribeULB', list: 'DataSet', id: 'ULBId', name: 'Name' },
  nat: { action: 'DescribeNATGW', list: 'DataSet', id: 'NATGWId', name: 'NATGWName' },
  vpnGateway: { action: 'DescribeVPNGateway', list: 'DataSet', id: 'VPNGatewayId', name: 'VPNGatewayName' },
  customerGateway: { action: 'DescribeRemoteVPNGateway', list: 'DataSet', id: 'RemoteVPNGatewayId', name: 'RemoteVPNGatewayName' },
  tunnel: { action: 'DescribeVPNTunnel', list: 'DataSet', id: 'VPNTunnelId', name: 'VPNTunnelName' },
  shield: { action: 'DescribeNapServiceInfo', list: 'ServiceInfo', id: 'ResourceId', name: 'Name' },
} as const;

/** The ids of the objects of a kind the API lists whose `match` (name or anything else) holds. */
async function listed(kind: keyof typeof KINDS, match: (r: Record<string, any>) => boolean): Promise<string[]> {
  const k = KINDS[kind];
  const body = await signedCloudCall(sandbox.url, { Action: k.action, Limit: 100, ...(kind === 'shield' ? { NapType: 1 } : {}) });
  expect(body.RetCode, JSON.stringify(body)).toBe(0);
  return ((body[k.list] ?? []) as Array<Record<string, any>>).filter(match).map((r) => String(r[k.id]));
}

const named = (kind: keyof typeof KINDS, name: string) => listed(kind, (r) => r[KINDS[kind].name] === name);

/** Until whatever was ordered so far is listed: a second order the last command sent would show by then. */
const allListed = () => new Promise((done) => setTimeout(done, PROVISIONING_MS));

/** Every type under test, each waited for no longer than 2 s: [address, kind, name, YAML of the resource]. */
function slowResources(b: Base): Array<[string, keyof typeof KINDS, string, string]> {
  const wait = 'options: { customTimeouts: { create: 2s } }';
  return [
    ['network', 'vpc', 'slow-vpc', `{ type: cloud:Vpc, properties: { name: slow-vpc, cidrBlocks: [10.71.0.0/16] }, ${wait} }`],
    ['apps', 'subnet', 'slow-subnet', `{ type: cloud:Subnet, properties: { vpcId: ${b.vpc}, cidrBlock: 10.70.3.0/24, name: slow-subnet }, ${wait} }`],
    ['hosts', 'firewall', 'slow-fw', `{ type: cloud:SecurityGroup, properties: { name: slow-fw, rules: [{ protocol: tcp, port: "443" }] }, ${wait} }`],
    ['address', 'eip', 'slow-eip', `{ type: cloud:Eip, properties: { name: slow-eip, internetType: bgp, bandwidth: 10, chargeType: dynamic }, ${wait} }`],
    ['balancer', 'lb', 'slow-lb', `{ type: cloud:Lb, properties: { vpcId: ${b.vpc}, subnetId: ${b.web}, name: slow-lb }, ${wait} }`],
    // As examples/cloud/compute.yaml has it: a NAT gateway on an EIP of its own, for both subnets.
    ['natAddress', 'eip', 'slow-nat-ip', `{ type: cloud:Eip, properties: { name: slow-nat-ip, internetType: bgp, bandwidth: 10, chargeType: dynamic }, ${wait} }`],
    [
      'nat',
      'nat',
      'slow-nat',
      `{ type: cloud:NatGateway, properties: { vpcId: ${b.vpc}, subnetIds: [${b.web}, ${b.data}], eipIds: ["\${natAddress.eipId}"], securityGroupId: ${b.firewall}, name: slow-nat }, ${wait} }`,
    ],
    ['gatewayIp', 'eip', 'slow-vpn-ip', `{ type: cloud:Eip, properties: { name: slow-vpn-ip, internetType: bgp, bandwidth: 10, chargeType: dynamic }, ${wait} }`],
    ['gateway', 'vpnGateway', 'slow-vpn', `{ type: cloud:VpnGateway, properties: { vpcId: ${b.vpc}, eipId: "\${gatewayIp.eipId}", grade: standard, chargeType: dynamic, name: slow-vpn }, ${wait} }`],
    ['office', 'customerGateway', 'slow-office', `{ type: cloud:VpnCustomerGateway, properties: { ipAddress: 203.0.113.61, name: slow-office }, ${wait} }`],
    [
      'link',
      'tunnel',
      'slow-link',
      `{ type: cloud:VpnConnection, properties: { vpnGatewayId: ${b.vpnGateway}, customerGatewayId: ${b.office}, vpcId: ${b.vpc}, name: slow-link, preSharedKey: Sandbox-psk-1, ipsecLocalSubnetIds: [${b.web}], ipsecRemoteSubnets: [192.168.20.0/24] }, ${wait} }`,
    ],
    [
      'shield',
      'shield',
      'slow-shield',
      `{ type: cloud:AntiDdosInstance, properties: { name: slow-shield, area: EastChina, dataCenter: Yangzhou, bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 50 }, ${wait} }`,
    ],
  ];
}

/** The types the sandbox lists only once provisioned (it allocates an EIP at once). */
const LISTED_LATE = ['network', 'apps', 'hosts', 'balancer', 'nat', 'gateway', 'office', 'link', 'shield'];

describe('a create whose wait ran out while the API did not list its object yet', () => {
  it('is recorded as still provisioning; the next apply, run at once, waits for it and buys nothing twice; a plan then shows no changes', async () => {
    const dir = workdir('plumb-slow-');
    const resources = slowResources(base);
    writeManifest(dir, 'plumb.yaml', `name: slow\n${CONFIG}resources:\n${resources.map(([address, , , yaml]) => `  ${address}: ${yaml}`).join('\n')}\n`);
    const first = await run(dir, 'apply', '--yes');
    expect(first.code, first.stdout).toBe(1);
    for (const address of LISTED_LATE) {
      expect(first.stdout, address).toMatch(new RegExp(`${address}.*timed out after .* is recorded as still provisioning, and the next apply waits for it`));
      expect(state(dir).resources[address]?.status, address).toBe('provisioning');
    }

    const second = await run(dir, 'apply', '--yes');
    expect(second.stderr).toBe('');
    expect(second.code, second.stdout).toBe(0);
    await allListed();
    const recorded = state(dir).resources;
    for (const [address, kind, name] of resources) {
      expect(await named(kind, name), address).toEqual([recorded[address].id]);
      expect(recorded[address].status, address).toBe('ok');
    }
    const plan = await run(dir, 'plan', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  }, 60_000);
});

describe('an apply killed while it waited for an order the API accepted', () => {
  const cases: Array<{ what: string; kind: keyof typeof KINDS; name: string; after: number; manifest: (b: Base) => string }> = [
    {
      what: 'a VPC, killed once its id was journaled (its intent, then its id)',
      kind: 'vpc',
      name: 'killed-vpc',
      after: 2,
      manifest: () => `  network: { type: cloud:Vpc, properties: { name: killed-vpc, cidrBlocks: [10.72.0.0/16] } }`,
    },
    {
      what: "a NAT gateway holding its EIP, killed once its id was journaled (the EIP's intent, id and outcome, then the gateway's intent and id)",
      kind: 'nat',
      name: 'killed-nat',
      after: 5,
      manifest: (b) =>
        [
          `  natAddress: { type: cloud:Eip, properties: { name: killed-nat-ip, internetType: bgp, bandwidth: 10, chargeType: dynamic } }`,
          `  nat: { type: cloud:NatGateway, properties: { vpcId: ${b.vpc}, subnetIds: [${b.web}, ${b.data}], eipIds: ["\${natAddress.eipId}"], securityGroupId: ${b.firewall}, name: killed-nat } }`,
        ].join('\n'),
    },
  ];
  for (const c of cases) {
    it(`${c.what}: the next apply, run at once, waits for it and buys no second one`, async () => {
      const dir = workdir('plumb-killed-');
      writeManifest(dir, 'plumb.yaml', `name: killed\n${CONFIG}resources:\n${c.manifest(base)}\n`);
      const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(c.after) } });
      expect(killed.code).not.toBe(0);

      const again = await run(dir, 'apply', '--yes');
      expect(again.stderr).toBe('');
      expect(again.code, again.stdout).toBe(0);
      expect(again.stdout).not.toContain('left nothing behind');
      await allListed();
      const address = c.kind === 'vpc' ? 'network' : 'nat';
      expect(await named(c.kind, c.name)).toEqual([state(dir).resources[address].id]);
      expect((await run(dir, 'plan', '--detailed-exitcode')).code).toBe(0);
    }, 30_000);
  }
});

/** Runs `plumb apply --yes` in `dir` and kills it (SIGKILL) once `ready` says so; resolves when it has exited. */
async function killedWhen(dir: string, ready: () => Promise<boolean>): Promise<void> {
  const child = spawn(process.execPath, [PLUMB, 'apply', '--yes'], { cwd: dir, env: { ...process.env, ...sandbox.env, NO_COLOR: '1' }, stdio: 'ignore' });
  const exited = new Promise((done) => child.once('exit', done));
  const deadline = Date.now() + 20_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error('the apply never reached the point to kill it at');
    await new Promise((wake) => setTimeout(wake, 50));
  }
  child.kill('SIGKILL');
  await exited;
}

describe('an apply killed after the API carried out its order but before the answer came back (no id journaled)', () => {
  it('a VPC plumb named after the order: the next apply, run at once, finds it by its name once it is listed, and buys no second one', async () => {
    const dir = workdir('plumb-inflight-');
    writeManifest(dir, 'plumb.yaml', `name: inflight\n${CONFIG}resources:\n  network: { type: cloud:Vpc, properties: { cidrBlocks: [10.73.0.0/16] } }\n`);
    const inRange = (r: Record<string, any>) => ((r.Network ?? []) as string[]).includes('10.73.0.0/16');
    await sandbox.clearCalls();
    // CreateVPC is carried out, its answer lost: the apply looks for what it made, and is killed then.
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'cloud', next: [{ match: 'Action=CreateVPC', drop: 'reply' }] }),
    });
    try {
      await killedWhen(dir, async () => {
        const actions = (await sandbox.calls('cloud')).map((call) => String(call.query.Action));
        return actions.includes('CreateVPC') && actions.lastIndexOf('DescribeVPC') > actions.indexOf('CreateVPC');
      });
    } finally {
      await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    }
    expect(await listed('vpc', inRange)).toEqual([]);

    const again = await run(dir, 'apply', '--yes');
    expect(again.stderr).toBe('');
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toMatch(/network: a create interrupted at \S+ may have ordered an object that is not listed yet/);
    await allListed();
    expect(await listed('vpc', inRange)).toEqual([state(dir).resources.network.id]);
    expect((await run(dir, 'plan', '--detailed-exitcode')).code).toBe(0);
  }, 30_000);
});
