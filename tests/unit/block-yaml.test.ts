import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { lineStarts, parseBlockYaml } from '../../src/manifest/block-yaml.js';
import { isMap, isScalar, isSeq } from '../../src/manifest/yaml-nodes.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { functions, resourceTypes } from '../../src/registry.js';

/** A node tree as plain data: what the manifest reader looks at (kind, value, quoting, start offset). */
function shape(node: unknown): unknown {
  if (isMap(node)) return { map: node.range?.[0], items: node.items.map((p) => [shape(p.key), shape(p.value)]) };
  if (isSeq(node)) return { seq: node.range?.[0], items: node.items.map(shape) };
  if (isScalar(node)) return { value: node.value, type: node.type, at: node.range?.[0] };
  return { other: String(node) };
}

/** What `yaml` makes of the text, or undefined when it reports an error. */
function viaYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  return doc.errors.length ? undefined : shape(doc.contents);
}

/** Tokens to resolve against (fresh iterators each time: parseManifest consumes them). */
const catalog = () => ({ resources: resourceTypes.keys(), functions: functions.keys() });

/** The manifest as the fast reader reads it (which must accept the text) and as `yaml` does. */
function throughBoth(text: string, file: string) {
  expect(parseBlockYaml(text)).toBeDefined();
  return { fast: parseManifest(text, file, catalog()), slow: parseManifest(text, file, catalog(), { blockYaml: false }) };
}

describe('the block YAML reader reads what it accepts exactly as yaml does', () => {
  const accepted: Array<[string, string]> = [
    ['core-schema scalars keep yaml types', 'a: ~\nb: Null\nc: true\nd: FALSE\ne: 0o17\nf: 0x1F\ng: +12\nh: -7\ni: 007\nj: 1.5\nk: .5\nl: 1e3\nm: -.inf\nn: .NaN\no: 1.\np: yes\nq: 2001-12-14\nr: 1_000\ns: 10000\nt: 123456789012345678901\nu: 0\n'],
    ['quoted scalars, with doubled single quotes', `a: "x # not a comment"\nb: 'it''s'\nc: ''\nd: "10"\n`],
    ['comments and blank lines anywhere', '# top\nname: x # trailing\n\n  # indented comment\nresources:\n  # inside\n  a:\n    type: t\n'],
    ['keys holding colons, values holding colons and hashes', 'config:\n  interconnect:waitTime: 10\n  url: http://example.com/a#b\nfn::x:\n  k: v\n'],
    ['interpolations stay strings', 'a: ${port.productUid}\nb: "${x}"\nc: $${y}\nd: pre-${a.b[0]["c"]}-post\n'],
    ['a sequence nested deeper or at the key\'s indentation', 'a:\n  - 1\n  - two\nb:\n- x\n- "y: z"\n- \'p: q\'\nc:\n  -\n    d: 1\n'],
    ['trailing spaces after values, keys and comments', 'a: x   \nb:   \n  c: "y"  \n  d: 1 # n  \n  e:\n    - z  \n'],
    ['deep nesting and unicode', 'r:\n  a:\n    b:\n      c:\n        d: ünïcødé ✓\n      e: 2\n  f: 3\n'],
  ];
  for (const [name, text] of accepted) {
    it(name, () => {
      const fast = parseBlockYaml(text);
      expect(fast).toBeDefined();
      expect(shape(fast)).toEqual(viaYaml(text));
    });
  }

  const left: Array<[string, string]> = [
    ['flow collections', 'a: { b: 1 }\n'],
    ['flow sequences', 'a: [1, 2]\n'],
    ['block scalars', 'a: |\n  text\n'],
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['tags', 'a: !!str 1\n'],
    ['multi-line plain scalars', 'a: one\n  two\n'],
    ['escapes in double quotes', 'a: "x\\ty"\n'],
    ['a quoted string that does not close on its line', 'a: "x\n  y"\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['a duplicate key in a large mapping', `${Array.from({ length: 20 }, (_, i) => `k${i}: ${i}\n`).join('')}k3: 0\n`],
    ['a duplicate key after a nested mapping', 'a:\n  b: 1\nc: 2\na: 3\n'],
    ['tabs', 'a:\n\tb: 1\n'],
    ['CRLF line ends', 'a: 1\r\nb: 2\r\n'],
    ['document markers', '---\na: 1\n'],
    ['mappings inside sequence items', 'a:\n  - b: 1\n'],
    ['empty values', 'a:\nb: 1\n'],
    ['indentation that matches no parent', 'a:\n    b: 1\n  c: 2\n'],
    ['space before the colon of a key', 'a : 1\n'],
    ['quoted keys', '"a": 1\n'],
    ['a colon and space inside a plain value', 'a: b: c\n'],
    ['a top level that is not a mapping', '- 1\n'],
  ];
  for (const [name, text] of left) {
    it(`leaves ${name} to yaml`, () => expect(parseBlockYaml(text)).toBeUndefined());
  }

  it('reads the same key in a nested or a sibling mapping, small or large', () => {
    const many = (indent: string) => Array.from({ length: 20 }, (_, i) => `${indent}k${i}: ${i}\n`).join('');
    const text = `a:\n  a: 1\n  b:\n    a: 2\nb:\n  a: 3\nk0:\n${many('  ')}  k20:\n${many('    ')}${many('').slice(6)}`;
    const fast = parseBlockYaml(text);
    expect(fast).toBeDefined();
    expect(shape(fast)).toEqual(shape(parseDocument(text).contents));
  });

  it('gives the line and column yaml gives', () => {
    const text = 'a: 1\n\n  # c\nbb:\n  ccc: "x"\n';
    const counter = new LineCounter();
    parseDocument(text, { lineCounter: counter });
    const mine = lineStarts(text);
    for (let offset = 0; offset < text.length; offset++) expect(mine(offset)).toEqual(counter.linePos(offset));
  });

  it('every example manifest reads the same through either reader', () => {
    const root = resolve(import.meta.dirname, '../../examples');
    for (const dir of readdirSync(root)) {
      for (const name of readdirSync(join(root, dir)).filter((f) => f.endsWith('.yaml'))) {
        const file = join(root, dir, name);
        const text = readFileSync(file, 'utf8');
        expect(parseManifest(text, file, catalog()), file).toEqual(parseManifest(text, file, catalog(), { blockYaml: false }));
      }
    }
  });

  it('a large generated manifest reads the same, with every position', () => {
    const lines = ['name: big', 'resources:'];
    for (let i = 0; i < 200; i++) {
      lines.push(`  port${i}:`, '    type: interconnect:index/port:Port', '    properties:', `      productName: p-${i} # name`, '      portSpeed: 10000', '      locationId: 2');
      lines.push('      contractTermMonths: 1', '      marketplaceVisibility: false', '      resourceTags:', `        team: "net-${i}"`);
    }
    const text = `${lines.join('\n')}\n`;
    const { fast, slow } = throughBoth(text, 'big.yaml');
    expect(fast).toEqual(slow);
  });

  it('expressions read straight from the text match yaml, problems and their order included', () => {
    const text = [
      'name: exprs',
      'config:',
      '  interconnect:waitTime: 10',
      '  region: "${bad"',
      'variables:',
      '  loc:',
      '    fn::invoke:',
      '      function: interconnect:getLocation',
      '      arguments:',
      '        name: "Equinix ${city}"',
      '      return: id',
      '  list:',
      '    - one',
      '    - "${loc}"',
      '    -',
      '      - nested',
      '  empty: ${}',
      'resources:',
      '  a:',
      '    type: interconnect:index/port:Port',
      '    properties:',
      '      productName: "p-${loc}-$${x}"',
      '      locationId: ${loc}',
      '      resourceTags:',
      '        fn::join:',
      '          - nope',
      '      extra:',
      '        1.0: a',
      '        true: b',
      '        k: \'it\'\'s ${list[0]}\'',
      '      bad: ${a.b',
      '      call:',
      '        x: 1',
      '        FN::Unknown: 2',
      '  b:',
      '    type: interconnect:index/notAType:Nope',
      '    properties:',
      '      never: ${reported',
      'outputs:',
      '  out: ${a.productUid}',
      '  secret:',
      '    fn::secret: ${loc}',
      '',
    ].join('\n');
    const { fast, slow } = throughBoth(text, 'exprs.yaml');
    expect(slow.diagnostics.map((d) => d.summary)).toEqual(
      expect.arrayContaining([expect.stringMatching(/unterminated/), expect.stringMatching(/empty/), expect.stringMatching(/only key/), expect.stringMatching(/unknown resource type/)]),
    );
    expect(slow.diagnostics.some((d) => d.summary.includes('fn::join'))).toBe(false);
    expect(fast).toEqual(slow);
    expect(fast.diagnostics.map((d) => [d.summary, d.pos?.line, d.pos?.column])).toEqual(slow.diagnostics.map((d) => [d.summary, d.pos?.line, d.pos?.column]));
    expect(fast.manifest.invoked).toEqual(['interconnect:index/getLocation:getLocation']);
  });

  it('a mapping found to call a function only at its last key reports what yaml reports, nothing from its other keys', () => {
    const text = [
      'name: late-call',
      'resources:',
      '  a:',
      '    type: interconnect:index/port:Port',
      '    properties:',
      '      productName:',
      '        first: ${a..b}',
      '        nested:',
      '          fn::invoke:',
      '            function: interconnect:getLocation',
      '            arguments:',
      '              name: x',
      '        fn::secret: s',
      '',
    ].join('\n');
    const { fast, slow } = throughBoth(text, 'late.yaml');
    expect(fast).toEqual(slow);
    expect(fast.diagnostics.map((d) => d.summary)).toEqual(['"fn::secret" must be the only key of its mapping']);
    expect(fast.manifest.invoked).toEqual([]);
  });

  it('generated manifests, valid and not, read the same through either reader', () => {
    let seed = 20261122;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
    const scalars = ['x', 'two words', '10', '-7', '1.5', 'true', 'null', '~', '0x1F', '1e3', '"quoted"', "'it''s'", '"a: b"', "'c # d'", '${port0.productUid}', 'p-${port0.id}', '$${x}', '"${q}"', '${}', '${a..b}', 'a # note', 'a:b', 'http://h/p#f', 'ünï ✓', '- x', '[1]', '"\\t"'];
    const keys = ['k', 'productName', '1', 'true', 'fn::join', 'fn::secret', 'Fn::Secret', 'fn::nope', 'fn::invoke', 'dup'];
    const block = (indent: number, depth: number): string[] => {
      const pad = ' '.repeat(indent);
      const lines: string[] = [];
      const count = 1 + Math.floor(random() * 3);
      const sequence = depth > 0 && random() < 0.2;
      for (let i = 0; i < count; i++) {
        const nested = depth < 4 && random() < 0.3;
        const head = sequence ? `${pad}-` : `${pad}${random() < 0.7 ? `k${i}` : pick(keys)}:`;
        if (nested) lines.push(head, ...block(indent + pick([2, 2, 4]), depth + 1));
        else lines.push(`${head} ${random() < 0.9 ? pick(scalars.slice(0, 24)) : pick(scalars)}`);
      }
      return lines;
    };
    let fastRead = 0;
    for (let n = 0; n < 400; n++) {
      const lines = ['name: generated', 'variables:', ...block(2, 1), 'resources:'];
      for (const address of ['port0', 'vxc1']) {
        lines.push(`  ${address}:`, `    type: ${pick(['interconnect:index/port:Port', 'interconnect:index/vxc:Vxc', 'nope:Nope'])}`, '    properties:', ...block(6, 1));
      }
      lines.push('outputs:', ...block(2, 1));
      const text = `${lines.join('\n')}\n`;
      if (parseBlockYaml(text)) fastRead++;
      expect(parseManifest(text, 'g.yaml', catalog()), text).toEqual(parseManifest(text, 'g.yaml', catalog(), { blockYaml: false }));
    }
    expect(fastRead).toBeGreaterThan(100);
  });

  it('a duplicate resource is still reported by yaml, at its line', () => {
    const text = 'name: x\nresources:\n  a:\n    type: interconnect:Port\n  a:\n    type: interconnect:Port\n';
    const { diagnostics } = parseManifest(text, 'dup.yaml', catalog());
    expect(diagnostics.map((d) => d.summary).join('\n')).toMatch(/unique/i);
  });
});
