import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planMarkdown } from '../../src/cli/render-markdown.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { expectGolden } from '../support/golden.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const port = (address: string, name: string, opts: { speed?: number; location?: number; extra?: string } = {}) => `  ${address}:
    type: interconnect:Port
    properties:
      productName: ${name}
      portSpeed: ${opts.speed ?? 10000}
      locationId: ${opts.location ?? 2}
      contractTermMonths: 12
      marketplaceVisibility: false
${opts.extra ?? ''}`;
const key = (address: string, portAddress: string) => `  ${address}:
    type: interconnect:ServiceKey
    properties:
      productUid: \${${portAddress}.productUid}
      active: true
      maxSpeed: 1000
      singleUse: true
      vlan: 300
      description: for a partner
`;
const manifest = (...resources: string[]) => `name: golden\nresources:\n${resources.join('')}outputs:\n  edgeUid: \${edge.productUid}\n`;

/** Plan text, compact plan, --json plan, then the apply text (events and final report). */
async function stage(dir: string, name: string, yaml: string, applyCode = 0) {
  writeManifest(dir, 'plumb.yaml', yaml);
  const env = sandbox.env;
  expectGolden(`${name}.plan.txt`, (await plumb(['plan'], { cwd: dir, env })).stdout);
  expectGolden(`${name}.compact.txt`, (await plumb(['plan', '--compact'], { cwd: dir, env })).stdout);
  const json = JSON.parse((await plumb(['plan', '--json'], { cwd: dir, env })).stdout);
  expectGolden(`${name}.plan.json`, JSON.stringify({ ...json, createdAt: 'x' }, null, 2));
  // One step at a time: independent steps finishing in either order would change the text.
  const applied = await plumb(['apply', '--yes', '--parallelism', '1'], { cwd: dir, env });
  expectGolden(`${name}.apply.txt`, applied.stdout + (applied.stderr ? `\n--- stderr ---\n${applied.stderr}` : ''));
  if (applied.code !== applyCode) throw new Error(`apply exited ${applied.code}:\n${applied.stdout}\n${applied.stderr}`);
}

/**
 * A small network for review: a port, an MCR, a VXC between them whose BGP session is nested in a
 * partner config, and a VXC to an AWS partner port found by a lookup.
 */
const network = (o: { rateLimit?: number; peerAsn?: number; description?: string; awsAsn?: number; extra?: string } = {}) => `name: review
variables:
  aws:
    fn::invoke:
      function: interconnect:index/getPartner:getPartner
      arguments: { connectType: AWS, locationId: 2, diversityZone: blue }
resources:
  port:
    type: interconnect:Port
    properties: { productName: review-port, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  router:
    type: interconnect:Mcr
    properties: { productName: review-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1, asn: 64555 }
  toRouter:
    type: interconnect:Vxc
    properties:
      productName: port-to-mcr
      rateLimit: ${o.rateLimit ?? 200}
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 200 }
      bEnd: { requestedProductUid: "\${router.productUid}" }
      bEndPartnerConfig:
        partner: vrouter
        interfaces:
          - ipAddresses: [10.200.0.1/30]
            bgpConnections:
              - peerAsn: ${o.peerAsn ?? 65020}
                localIpAddress: 10.200.0.1
                peerIpAddress: 10.200.0.2
                password: bgp-shared-secret
                description: ${o.description ?? 'a long description of the on-premises peer that used to be cut off after about one hundred and twenty characters'}
  toAws:
    type: interconnect:Vxc
    properties:
      productName: port-to-aws
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 300 }
      bEnd: { requestedProductUid: "\${aws.productUid}" }
      bEndPartnerConfig: { partner: aws, type: private, ownerAccount: "123456789012", asn: ${o.awsAsn ?? 64512}, name: review-vif }
${o.extra ?? ''}outputs:
  portUid: \${port.productUid}
`;

/** The recorded plan (plan --json, normalised) and what apply printed, for a review stage. */
async function record(dir: string, name: string, yaml: string) {
  writeManifest(dir, 'plumb.yaml', yaml);
  const env = sandbox.env;
  const json = JSON.parse((await plumb(['plan', '--json'], { cwd: dir, env })).stdout);
  expectGolden(`${name}.plan.json`, JSON.stringify({ ...json, createdAt: 'x' }, null, 2));
  // The same plan as a pull-request comment, and as a page with a node per resource.
  const review = await plumb(['plan', '--format', 'markdown', '--html', 'plan.html'], { cwd: dir, env });
  expect(review.stdout).toBe(planMarkdown(json));
  expect(review.stderr).toContain('Wrote the plan as a page for review to plan.html.');
  const page = readFileSync(join(dir, 'plan.html'), 'utf8');
  expect(page.match(/<g class="node /g)).toHaveLength(json.changes.length);
  const applied = await plumb(['apply', '--yes', '--parallelism', '1'], { cwd: dir, env });
  expectGolden(`${name}.apply.txt`, applied.stdout + (applied.stderr ? `\n--- stderr ---\n${applied.stderr}` : ''));
  if (applied.code !== 0) throw new Error(`apply exited ${applied.code}:\n${applied.stdout}\n${applied.stderr}`);
  // The plan shown before applying leaves the outputs to the report: they are printed once.
  expect(applied.stdout.split('Outputs:')).toHaveLength(2);
}

describe('golden output', () => {
  it('a network through a nested update, a VXC replaced delete-first, an import with an update, drift and destroy', async () => {
    const dir = workdir();
    const env = sandbox.env;
    await record(dir, 'review-create', network());
    await record(dir, 'review-nested-update', network({ rateLimit: 300, peerAsn: 65021, description: 'dc2' }));
    await record(dir, 'review-vxc-replace', network({ rateLimit: 300, peerAsn: 65021, description: 'dc2', awsAsn: 64513 }));
    const uid = await new InterconnectApi(sandbox.url).orderPort('bought-by-hand');
    const adopted = `  adopted:\n    type: interconnect:Port\n    properties: { productName: adopted-port, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }\n    options: { import: ${uid} }\n`;
    await record(dir, 'review-import-update', network({ rateLimit: 300, peerAsn: 65021, description: 'dc2', awsAsn: 64513, extra: adopted }));
    // Drift made as a person would: through the API, out of band.
    const state = await plumb(['state', 'show', 'port', '--json'], { cwd: dir, env });
    const portId = JSON.parse(state.stdout).id as string;
    await new InterconnectApi(sandbox.url).call('PUT', `/v2/product/megaport/${portId}`, { name: 'renamed-by-hand', costCentre: '' });
    const drift = JSON.parse((await plumb(['drift', '--json'], { cwd: dir, env })).stdout);
    expectGolden('review-drift.json', JSON.stringify({ ...drift, checkedAt: 'x' }, null, 2));
    expectGolden('review-drift.table.txt', (await plumb(['drift'], { cwd: dir, env })).stdout);
    const reviewed = await plumb(['drift', '--format', 'markdown', '--html', 'drift.html'], { cwd: dir, env });
    expect(reviewed.stdout).toContain('| `port` | drifted | `productName` | "review-port" | "renamed-by-hand" |');
    expect(readFileSync(join(dir, 'drift.html'), 'utf8').match(/<g class="node /g)).toHaveLength(drift.resources.length);
    await plumb(['refresh', '--yes'], { cwd: dir, env });
    const plan = JSON.parse((await plumb(['plan', '--destroy', '--json'], { cwd: dir, env })).stdout);
    expectGolden('review-destroy.plan.json', JSON.stringify({ ...plan, createdAt: 'x' }, null, 2));
    const destroyed = await plumb(['destroy', '--yes', '--parallelism', '1'], { cwd: dir, env });
    expectGolden('review-destroy.apply.txt', destroyed.stdout);
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toContain('Destroy complete! Resources: 5 destroyed.');
    expect(destroyed.stdout).not.toContain('Outputs:');
  });

  it('create, update, replace, failure with skipped dependents, import and delete', async () => {
    const dir = workdir();
    await stage(dir, 'create', manifest(port('edge', 'edge-1'), key('key', 'edge')));
    await stage(dir, 'update', manifest(port('edge', 'edge-renamed'), key('key', 'edge')));
    await stage(dir, 'replace', manifest(port('edge', 'edge-renamed', { speed: 100000 }), key('key', 'edge')));
    // A name longer than the API takes: nothing plumb checks before ordering knows that rule, the API's validation does.
    await stage(dir, 'failure', manifest(port('edge', 'edge-renamed', { speed: 100000 }), key('key', 'edge'), port('bad', 'n'.repeat(129)), key('badKey', 'bad')), 1);
    const uid = await new InterconnectApi(sandbox.url).orderPort('bought-by-hand');
    await stage(dir, 'import', manifest(port('edge', 'edge-renamed', { speed: 100000 }), key('key', 'edge'), port('adopted', 'bought-by-hand', { extra: `    options:\n      import: ${uid}\n` })));
    await stage(dir, 'delete', manifest(port('edge', 'edge-renamed', { speed: 100000 })));
  });

  it('apply --json prints one event per line, then the report', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest(port('edge', 'edge-json'), key('key', 'edge')));
    const applied = await plumb(['apply', '--yes', '--json'], { cwd: dir, env: sandbox.env });
    const events = applied.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.type !== 'step-progress');
    expectGolden('events.jsonl', events.map((e) => JSON.stringify(e)).join('\n'));
  });
});
