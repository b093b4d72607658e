import { afterAll, beforeAll, describe, it } from 'vitest';
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

describe('golden output', () => {
  it('create, update, replace, failure with skipped dependents, import and delete', async () => {
    const dir = workdir();
    await stage(dir, 'create', manifest(port('edge', 'edge-1'), key('key', 'edge')));
    await stage(dir, 'update', manifest(port('edge', 'edge-renamed'), key('key', 'edge')));
    await stage(dir, 'replace', manifest(port('edge', 'edge-renamed', { speed: 100000 }), key('key', 'edge')));
    await stage(dir, 'failure', manifest(port('edge', 'edge-renamed', { speed: 100000 }), key('key', 'edge'), port('bad', 'restricted', { location: 6 }), key('badKey', 'bad')), 1);
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
