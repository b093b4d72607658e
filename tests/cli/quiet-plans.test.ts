import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

/**
 * Seven creates: examples/interconnect/port-mcr-aws.yaml with its AWS partner port found by a
 * getPartner that three ports match (a warning), a second port and two service keys. Before
 * values known only after apply were counted, its plan was 251 lines, 149 of them
 * `(known after apply)`.
 */
function sevenCreates(lookupWaits = false): string {
  const example = readFileSync(resolve(import.meta.dirname, '../../examples/interconnect/port-mcr-aws.yaml'), 'utf8');
  const extra = `  backupPort:
    type: interconnect:index/port:Port
    properties: { productName: syd-port-2, portSpeed: 10000, locationId: "\${syd.id}", contractTermMonths: 12, marketplaceVisibility: false }
  partnerKey:
    type: interconnect:index/serviceKey:ServiceKey
    properties: { productUid: "\${port.productUid}", active: true, maxSpeed: 1000, singleUse: true, vlan: 300, description: for a partner }
  backupKey:
    type: interconnect:index/serviceKey:ServiceKey
    properties: { productUid: "\${backupPort.productUid}", active: true, maxSpeed: 1000, singleUse: true, vlan: 301, description: for a partner }
outputs:
`;
  // Called only once the port exists: the plan cannot call it, the apply does.
  const waits = lookupWaits ? '\n      options: { dependsOn: ["${port}"] }' : '';
  const yaml = example.replace(', diversityZone: blue }', ` }${waits}`).replace('outputs:\n', extra);
  const dir = workdir('plumb-quiet-');
  writeManifest(dir, 'plumb.yaml', yaml);
  return dir;
}

const KNOWN_AFTER_APPLY = '(known after apply)';
const counts = (text: string) => [...text.matchAll(/# \((\d+) values? known after apply\)/g)].map((m) => Number(m[1]));
const lines = (text: string) => text.trimEnd().split('\n').length;
const GETPARTNER = /Warning: getPartner: 3 partner ports match/g;

describe('plans show what the manifest wrote and what changes', () => {
  it('values known only after apply are counted per resource, not listed; --verbose and --json keep every one', async () => {
    const cwd = sevenCreates();
    const env = sandbox.env;
    const plan = await plumb(['plan'], { cwd, env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Plan: 7 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(plan.stdout).not.toContain(KNOWN_AFTER_APPLY);
    // The plan, then its cost block (a few lines).
    expect(lines(plan.stdout)).toBeLessThanOrEqual(125);
    // A reference the manifest wrote shows as written; one known now says where it came from.
    expect(plan.stdout).toContain('+ requestedProductUid = ${port.productUid}\n');
    expect(plan.stdout).toMatch(/\+ locationId +\= 2 {2}# syd\.id\n/);
    expect(plan.stdout).toContain('  portUid = ${port.productUid}\n');
    const perResource = counts(plan.stdout);
    expect(perResource).toHaveLength(7);

    const verbose = await plumb(['plan', '--verbose'], { cwd, env });
    expect(verbose.code).toBe(0);
    const listed = verbose.stdout.split(KNOWN_AFTER_APPLY).length - 1;
    // Every one counted is listed with --verbose, as are the references and outputs shown as written.
    expect(listed).toBeGreaterThanOrEqual(perResource.reduce((a, b) => a + b, 0));
    expect(listed).toBe(149);
    expect(counts(verbose.stdout)).toEqual([]);

    const json = await plumb(['plan', '--json'], { cwd, env });
    expect(json.stdout.split('"$unknown"').length - 1).toBeGreaterThanOrEqual(listed);
    const compact = await plumb(['plan', '--compact'], { cwd, env });
    expect(compact.stdout).not.toContain(KNOWN_AFTER_APPLY);
    const markdown = await plumb(['plan', '--format', 'markdown'], { cwd, env });
    expect(markdown.stdout).not.toContain(KNOWN_AFTER_APPLY);
    expect(counts(markdown.stdout)).toEqual(perResource);
  });

  it('the plan apply shows before applying is as quiet, unless --verbose', async () => {
    const cwd = sevenCreates();
    // Without a terminal and without --yes, apply shows its plan and stops.
    const verbose = await plumb(['apply', '--verbose'], { cwd, env: sandbox.env });
    expect(verbose.code).toBe(1);
    expect(verbose.stdout).toContain(KNOWN_AFTER_APPLY);
    const applied = await plumb(['apply', '--yes'], { cwd, env: sandbox.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).not.toContain(KNOWN_AFTER_APPLY);
    expect(counts(applied.stdout)).toHaveLength(7);
  });
});

describe('a warning is printed once per command', () => {
  it('the getPartner warning: once by plan, apply and destroy, and once in the JSON report', async () => {
    const cwd = sevenCreates();
    const env = sandbox.env;
    expect((await plumb(['plan'], { cwd, env })).stdout.match(GETPARTNER)).toHaveLength(1);
    const applied = await plumb(['apply', '--yes', '--json'], { cwd, env });
    expect(applied.code, applied.stderr).toBe(0);
    const report = JSON.parse(applied.stdout.trimEnd().split('\n').pop()!);
    expect(report.warnings.filter((w: string) => w.startsWith('getPartner: 3 partner ports match'))).toHaveLength(1);
    const again = await plumb(['apply', '--yes'], { cwd, env });
    expect(again.stdout.match(GETPARTNER)).toHaveLength(1);
    const destroyed = await plumb(['destroy', '--yes'], { cwd, env });
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(destroyed.stdout.match(GETPARTNER)).toHaveLength(1);
  });

  it('a lookup that runs only at apply (it waits for a resource) says its warning once there too', async () => {
    const cwd = sevenCreates(true);
    const applied = await plumb(['apply', '--yes'], { cwd, env: sandbox.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.match(GETPARTNER)).toHaveLength(1);
    const destroyed = await plumb(['destroy', '--yes'], { cwd, env: sandbox.env });
    expect(destroyed.code, destroyed.stderr).toBe(0);
    const again = await plumb(['apply', '--yes', '--json'], { cwd, env: sandbox.env });
    const events = again.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.filter((e) => e.type === 'warning' && /getPartner: 3 partner ports match/.test(e.message))).toHaveLength(1);
  });
});
