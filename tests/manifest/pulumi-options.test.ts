import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/parse.js';

const catalog = { resources: ['interconnect:index/port:Port'], functions: [] };
const withOptions = (options: string) => `name: o\nvariables:\n  prod: true\nresources:\n  target:\n    type: interconnect:Port\n  port:\n    type: interconnect:Port\n    options:\n${options}`;
const parse = (options: string) => parseManifest(withOptions(options), 'm.yaml', catalog);
const errors = (options: string) => parse(options).diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}${d.detail ? ` (${d.detail})` : ''}`);

describe('Pulumi resource options', () => {
  it('additionalSecretOutputs, deletedWith, replacementTrigger, hideDiffs and customTimeouts.read are read', () => {
    const { manifest, diagnostics } = parse(
      '      additionalSecretOutputs: [productUid]\n      deletedWith: ${target}\n      replacementTrigger: { fn::join: ["-", [a, "${pulumi.stack}"]] }\n      hideDiffs: [resourceTags]\n      customTimeouts: { read: 45s }\n',
    );
    expect(diagnostics).toEqual([]);
    const options = manifest.resources.port.options;
    expect(options.additionalSecretOutputs).toEqual(['productUid']);
    expect(options.deletedWith).toMatchObject({ root: 'target' });
    expect(options.replacementTrigger).toMatchObject({ kind: 'builtin', name: 'join' });
    expect(options.hideDiffs).toEqual(['resourceTags']);
    expect(options.customTimeouts).toEqual({ read: 45_000 });
  });

  it('protect may be an expression, evaluated when planning', () => {
    const { manifest, diagnostics } = parse('      protect: ${prod}\n');
    expect(diagnostics).toEqual([]);
    expect(manifest.resources.port.options.protectExpr).toMatchObject({ kind: 'ref', root: 'prod' });
    expect(errors('      protect: yes please\n')).toEqual(['10:16 option protect must be true, false or an expression such as ${isProduction}']);
  });

  it('deletedWith names one resource; a variable is refused', () => {
    expect(errors('      deletedWith: ${prod}\n')).toEqual(['10:20 deletedWith "prod" is a variable, not a resource']);
    expect(errors('      deletedWith: [a, b]\n')).toEqual(['10:20 deletedWith takes one resource reference like ${port}']);
  });

  it('parent names a resource: the child is ordered after it and takes its protect and retainOnDelete unless it sets its own', () => {
    const { manifest, diagnostics } = parseManifest(
      `${withOptions('      parent: ${target}\n')}\n  other:\n    type: interconnect:Port\n    options: { parent: "\${target}", protect: false }\n`.replace(
        '    type: interconnect:Port\n  port:',
        '    type: interconnect:Port\n    options: { protect: true, retainOnDelete: true }\n  port:',
      ),
      'm.yaml',
      catalog,
    );
    expect(diagnostics).toEqual([]);
    const { port, other } = manifest.resources;
    expect(port.options).toMatchObject({ parent: { root: 'target' }, protect: true, retainOnDelete: true });
    expect(other.options).toMatchObject({ protect: false, retainOnDelete: true });
    expect(errors('      parent: ${prod}\n')).toEqual(['10:15 parent ${prod} is a variable, not a resource (a parent is another resource under resources:)']);
    expect(errors('      parent: [a]\n')).toEqual(['10:15 option parent takes one resource reference like ${router}']);
  });

  it('provider pins (version, pluginDownloadURL) are accepted with one note for the whole manifest', () => {
    const { manifest, diagnostics } = parse('      version: 1.0.0\n      pluginDownloadURL: https://x\n');
    expect(diagnostics).toEqual([]);
    expect(manifest.warnings.map((w) => `${w.pos?.line}:${w.pos?.column} ${w.summary}`)).toEqual([
      "10:16 options.pluginDownloadURL and options.version (port) ignored: plumb's providers are built in, so there is no plugin to pin or download",
    ]);
    expect(errors('      version: [1]\n')).toEqual(['10:16 option version must be a string']);
  });

  it('customTimeouts may be expressions, read when planning', () => {
    const { manifest, diagnostics } = parse('      customTimeouts: { create: "${prod}", delete: 5m }\n');
    expect(diagnostics).toEqual([]);
    expect(manifest.resources.port.options.customTimeouts).toEqual({ delete: 300_000 });
    expect(manifest.resources.port.options.customTimeoutExprs?.create).toMatchObject({ kind: 'ref', root: 'prod' });
    expect(errors('      customTimeouts: { create: soon }\n')).toEqual(['10:33 customTimeouts.create must be a duration like 90s, 30m or 1h']);
  });

  it('aliases are old names, URNs or {name, type}; each wrong one is said at its item', () => {
    const { manifest, diagnostics } = parse('      aliases:\n        - old\n        - urn:pulumi:dev::o::interconnect:index/port:Port::older\n        - { name: oldest, type: interconnect:Port }\n');
    expect(diagnostics).toEqual([]);
    expect(manifest.resources.port.options.aliases?.map((a) => [a.name, a.type])).toEqual([
      ['old', undefined],
      ['older', 'interconnect:index/port:Port'],
      ['oldest', 'interconnect:Port'],
    ]);
    expect(errors('      aliases: old\n')).toEqual([
      '10:16 option aliases must be a list (aliases is a list of old names (oldPort), URNs (urn:pulumi:stack::project::type::oldPort) or {name, type} mappings)',
    ]);
    expect(errors('      aliases:\n        - { type: interconnect:Port }\n        - { name: a, parent: x }\n        - { name: a, stack: prod }\n        - 3\n')).toEqual([
      '11:11 an alias mapping needs the old name: {name: oldPort} (aliases is a list of old names (oldPort), URNs (urn:pulumi:stack::project::type::oldPort) or {name, type} mappings)',
      '12:22 alias key "parent" is not supported (there are no component resources: every resource is at the top level)',
      '13:22 alias key "stack" is not supported (an alias names an address in this stack: a resource moves between stacks with plumb state mv and import)',
      '14:11 an alias must be an old name, a URN or a {name, type} mapping (aliases is a list of old names (oldPort), URNs (urn:pulumi:stack::project::type::oldPort) or {name, type} mappings)',
    ]);
  });
});
