import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../src/engine/evaluation/evaluate.js';
import { buildGraph } from '../../src/engine/graph/graph.js';
import { Evaluation } from '../../src/engine/evaluation/scope.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { Unknown } from '../../src/kernel/values.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

const LENGTH = 100_000;
const portProperties = ['      portSpeed: 10000', '      locationId: 2', '      contractTermMonths: 1', '      marketplaceVisibility: false'];

/** `v0: <first>`, then each variable the one before it, and a port named by the last. */
function chain(first: string): string {
  const lines = ['name: chain', 'variables:', `  v0: ${first}`];
  for (let i = 1; i < LENGTH; i++) lines.push(`  v${i}: \${v${i - 1}}`);
  lines.push('resources:', '  port:', '    type: interconnect:Port', '    properties:', `      productName: \${v${LENGTH - 1}}`, ...portProperties);
  return `${lines.join('\n')}\n`;
}

const catalog = { resources: ['interconnect:index/port:Port'], functions: [] };

describe(`a chain of ${LENGTH.toLocaleString('en')} variables`, () => {
  it('is ordered and evaluated, each variable after the one it reads', async () => {
    const { manifest, diagnostics } = parseManifest(chain('edge'), 'm.yaml', catalog);
    expect(diagnostics).toEqual([]);
    const { graph, diagnostics: problems } = buildGraph(manifest);
    expect(problems).toEqual([]);
    expect(graph.order.indexOf('v0')).toBeLessThan(graph.order.indexOf(`v${LENGTH - 1}`));
    const evaluation = new Evaluation(manifest, undefined, () => new Unknown());
    expect(await evaluate(manifest.resources.port.properties, evaluation.scope())).toMatchObject({ productName: 'edge' });
  });

  it('a resource at its end depends on the resource at its start', () => {
    const yaml = chain('${first.productUid}').replace('resources:\n', `resources:\n  first:\n    type: interconnect:Port\n    properties:\n      productName: a\n${portProperties.join('\n')}\n`);
    const { manifest } = parseManifest(yaml, 'm.yaml', catalog);
    expect(buildGraph(manifest).graph.resourceDependencies('port')).toEqual(['first']);
  });

  it('closed into a cycle is one error at its first name, the path shortened', () => {
    const { manifest } = parseManifest(chain(`\${v${LENGTH - 1}}`), 'm.yaml', catalog);
    const { diagnostics } = buildGraph(manifest);
    expect(diagnostics.map((d) => [d.summary, d.pos?.line, d.pos?.column])).toEqual([
      [`reference cycle: v0 -> v99999 -> v99998 -> v99997 -> v99996 -> v99995 -> (99990 more) -> v4 -> v3 -> v2 -> v1 -> v0`, 3, 7],
    ]);
  });

  describe('through the CLI', () => {
    let sandbox: Awaited<ReturnType<typeof testSandbox>>;
    beforeAll(async () => {
      sandbox = await testSandbox();
    });
    afterAll(async () => sandbox.close());

    it('plan shows the value at its end', async () => {
      const dir = workdir();
      writeManifest(dir, 'plumb.yaml', chain('edge-port'));
      const result = await plumb(['plan'], { cwd: dir, env: sandbox.env });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/\+ productName\s+= "edge-port"/);
    });
  });
});
