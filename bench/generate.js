// Writes the benchmark manifest: N resources, N/3 ports and 2N/3 VXCs, VXC i connecting
// port (i mod P) to port ((7i + 1) mod P). P is even, so no VXC connects a port to itself.
//
// `style: 'flow'` writes each resource on one line as a flow mapping (`{ type: ..., properties:
// { ... } }`), which YAML reads by other rules than the indented block style.
//
//   node bench/generate.js 3000 [block|flow] > manifest.yaml

import { pathToFileURL } from 'node:url';

/** The number of ports for n resources (even, at least 2). */
export function portCount(n) {
  const p = Math.max(2, Math.round(n / 3));
  return p % 2 === 0 ? p : p + 1;
}

/** The ports a VXC connects: [aEnd, bEnd] port indexes. */
export function vxcEnds(i, ports) {
  return [i % ports, (7 * i + 1) % ports];
}

/** Manifest text for n resources in block (default) or flow style; `config` adds config lines (e.g. provider limits). */
export function generateManifest(n, { name = `bench-${n}`, config = {}, style = 'block' } = {}) {
  const ports = portCount(n);
  const vxcs = n - ports;
  const out = [`name: ${name}`, 'config:', '  interconnect:waitTime: 10'];
  for (const [key, value] of Object.entries(config)) out.push(`  ${key}: ${value}`);
  out.push('resources:');
  if (style === 'flow') return flowResources(out, ports, vxcs);
  for (let i = 0; i < ports; i++) {
    out.push(
      `  port${i}:`,
      '    type: interconnect:index/port:Port',
      '    properties:',
      `      productName: bench-port-${i}`,
      '      portSpeed: 10000',
      '      locationId: 2',
      '      contractTermMonths: 1',
      '      marketplaceVisibility: false',
    );
  }
  for (let i = 0; i < vxcs; i++) {
    const [a, b] = vxcEnds(i, ports);
    out.push(
      `  vxc${i}:`,
      '    type: interconnect:index/vxc:Vxc',
      '    properties:',
      `      productName: bench-vxc-${i}`,
      '      rateLimit: 100',
      '      contractTermMonths: 1',
      '      aEnd:',
      `        requestedProductUid: \${port${a}.productUid}`,
      '      bEnd:',
      `        requestedProductUid: \${port${b}.productUid}`,
    );
  }
  return `${out.join('\n')}\n`;
}

function flowResources(out, ports, vxcs) {
  for (let i = 0; i < ports; i++) {
    out.push(
      `  port${i}: { type: interconnect:index/port:Port, properties: { productName: bench-port-${i}, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false } }`,
    );
  }
  for (let i = 0; i < vxcs; i++) {
    const [a, b] = vxcEnds(i, ports);
    out.push(
      `  vxc${i}: { type: interconnect:index/vxc:Vxc, properties: { productName: bench-vxc-${i}, rateLimit: 100, contractTermMonths: 1, ` +
        `aEnd: { requestedProductUid: "\${port${a}.productUid}" }, bEnd: { requestedProductUid: "\${port${b}.productUid}" } } }`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** The dependency graph of that manifest: each resource with the resources it needs first. */
export function generatedGraph(n) {
  const ports = portCount(n);
  const nodes = [];
  for (let i = 0; i < ports; i++) nodes.push({ address: `port${i}`, needs: [] });
  for (let i = 0; i < n - ports; i++) nodes.push({ address: `vxc${i}`, needs: vxcEnds(i, ports).map((p) => `port${p}`) });
  return nodes;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const n = Number(process.argv[2]);
  if (!Number.isInteger(n) || n < 3) {
    process.stderr.write('usage: node bench/generate.js N [block|flow] (N >= 3)\n');
    process.exit(1);
  }
  process.stdout.write(generateManifest(n, { style: process.argv[3] ?? 'block' }));
}
