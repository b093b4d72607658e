// The benchmark's manifests.
//
// productGraph(n): an interconnect graph of n products as users build them — n/3 ports with user
// tags, n/6 MCRs each with two prefix filter lists, n/2 VXCs from a port to an MCR — so 300
// products are 100 ports, 50 MCRs (100 lists) and 150 VXCs: 400 resources.
//
// generateManifest(n): n resources, n/3 ports and 2n/3 VXCs, VXC i connecting port (i mod P) to
// port ((7i + 1) mod P), for the engine's own cost (validate, plan --no-refresh) and compare.js.
// `style: 'flow'` writes each resource on one line as a flow mapping (`{ type: ..., properties:
// { ... } }`), which YAML reads by other rules than the indented block style.
//
//   node bench/generate.js products 300 > manifest.yaml
//   node bench/generate.js 3000 [block|flow] > manifest.yaml

import { pathToFileURL } from 'node:url';

/** Ports, MCRs and VXCs of an n-product graph (n a multiple of 6). */
export function graphShape(n) {
  const unit = Math.max(1, Math.round(n / 6));
  return { ports: 2 * unit, mcrs: unit, vxcs: 3 * unit };
}

/** Manifest text of the n-product graph. */
export function productGraph(n, { name = `products-${n}` } = {}) {
  const { ports, mcrs, vxcs } = graphShape(n);
  const out = [`name: ${name}`, 'config:', '  interconnect:waitTime: 30', 'resources:'];
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
      `      resourceTags: { team: team-${i % 7}, env: ${i % 2 ? 'prod' : 'staging'} }`,
    );
  }
  for (let i = 0; i < mcrs; i++) {
    out.push(`  mcr${i}:`, '    type: interconnect:index/mcr:Mcr', `    properties: { productName: bench-mcr-${i}, portSpeed: 2500, locationId: 2, contractTermMonths: 1 }`);
    for (const [k, family, prefix] of [
      ['v4', 'IPv4', '10.0.0.0/8'],
      ['v6', 'IPv6', '"2001:db8::/32"'],
    ]) {
      out.push(
        `  mcr${i}Routes${k}:`,
        '    type: interconnect:index/mcrPrefixFilterList:McrPrefixFilterList',
        '    properties:',
        `      mcrId: \${mcr${i}.productUid}`,
        `      description: routes-${k}`,
        `      addressFamily: ${family}`,
        `      entries: [{ action: permit, prefix: ${prefix}, le: ${k === 'v4' ? 24 : 48} }]`,
      );
    }
  }
  for (let i = 0; i < vxcs; i++) {
    out.push(
      `  vxc${i}:`,
      '    type: interconnect:index/vxc:Vxc',
      '    properties:',
      `      productName: bench-vxc-${i}`,
      '      rateLimit: 100',
      '      contractTermMonths: 1',
      '      aEnd:',
      `        requestedProductUid: \${port${i % ports}.productUid}`,
      '      bEnd:',
      `        requestedProductUid: \${mcr${i % mcrs}.productUid}`,
    );
  }
  return `${out.join('\n')}\n`;
}

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
    out.push(`  port${i}: { type: interconnect:index/port:Port, properties: { productName: bench-port-${i}, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false } }`);
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const products = process.argv[2] === 'products';
  const n = Number(process.argv[products ? 3 : 2]);
  if (!Number.isInteger(n) || n < (products ? 6 : 3)) {
    process.stderr.write('usage: node bench/generate.js products N (N >= 6) | node bench/generate.js N [block|flow] (N >= 3)\n');
    process.exit(1);
  }
  process.stdout.write(products ? productGraph(n) : generateManifest(n, { style: process.argv[3] ?? 'block' }));
}
