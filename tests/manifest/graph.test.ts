import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/engine/graph/graph.js';
import { parseManifest } from '../../src/manifest/parse.js';

const catalog = { resources: ['interconnect:index/port:Port'], functions: ['interconnect:index/getLocation:getLocation'] };
const graphOf = (yaml: string) => {
  const { manifest, diagnostics } = parseManifest(yaml, 'm.yaml', catalog);
  expect(diagnostics).toEqual([]);
  return buildGraph(manifest);
};

describe('dependency graph', () => {
  it('orders a resource after the variable it reads, and sees through variables', () => {
    const { graph, diagnostics } = graphOf(`
variables:
  uid: \${a.productUid}
resources:
  a: { type: interconnect:Port, properties: {} }
  b: { type: interconnect:Port, properties: { productName: "\${uid}" } }
`);
    expect(diagnostics).toEqual([]);
    expect(graph.order.indexOf('a')).toBeLessThan(graph.order.indexOf('uid'));
    expect(graph.order.indexOf('uid')).toBeLessThan(graph.order.indexOf('b'));
    expect(graph.resourceDependencies('b')).toEqual(['a']);
  });
  it('dependsOn adds an edge without a reference', () => {
    const { graph } = graphOf(`
resources:
  a: { type: interconnect:Port, properties: {} }
  b: { type: interconnect:Port, properties: {}, options: { dependsOn: ['\${a}'] } }
`);
    expect(graph.resourceDependencies('b')).toEqual(['a']);
  });
  it('a cycle is reported with its path', () => {
    const { diagnostics } = graphOf(`
variables:
  x: \${y}
  y: \${z}
  z: \${x}
`);
    expect(diagnostics.map((d) => d.summary)).toEqual(['reference cycle: x -> y -> z -> x']);
  });
  it('an unknown name suggests the closest one', () => {
    const { diagnostics } = graphOf(`
resources:
  port: { type: interconnect:Port, properties: {} }
outputs:
  uid: \${prot.productUid}
`);
    expect(diagnostics[0].summary).toBe('reference "prot" is not defined');
    expect(diagnostics[0].detail).toContain('did you mean "port"?');
    expect(diagnostics[0].pos).toMatchObject({ line: 5, column: 8 });
  });
});
