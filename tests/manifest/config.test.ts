import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/engine/evaluation/evaluate.js';
import { Evaluation } from '../../src/engine/evaluation/scope.js';
import { resolveConfig, type ConfigSources } from '../../src/manifest/config-resolve.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { Secret, Unknown } from '../../src/kernel/values.js';

/** A manifest in a fresh folder, with the stack settings files given. */
function setUp(yaml: string, stackFiles: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-config-'));
  for (const [name, text] of Object.entries(stackFiles)) writeFileSync(join(dir, name), text);
  const file = join(dir, 'plumb.yaml');
  writeFileSync(file, yaml);
  const parsed = parseManifest(yaml, file, { resources: [], functions: [] });
  expect(parsed.diagnostics).toEqual([]);
  return { dir, manifest: parsed.manifest };
}

const sources = (over: Partial<ConfigSources> = {}): ConfigSources => ({
  stack: 'dev',
  env: {},
  flags: [],
  providers: ['interconnect'],
  open: (sealed) => new Secret(`opened ${sealed}`),
  ...over,
});

/** Every output's value once the config is resolved. */
async function outputs(manifest: ReturnType<typeof setUp>['manifest']) {
  const scope = new Evaluation(manifest, undefined, () => new Unknown()).scope();
  const out: Record<string, unknown> = {};
  for (const [name, expr] of Object.entries(manifest.outputs)) out[name] = await evaluate(expr, scope);
  return out;
}

const typed = `name: edge
config:
  password:
    type: string
    secret: true
  speed:
    type: integer
    default: 1000
  regions:
    type: array
    items: { type: string }
    default: [syd]
  label: plain
outputs:
  password: \${password}
  speed: \${speed}
  regions: \${regions}
  label: \${label}
  namespaced: \${edge:label}
`;

describe('typed config', () => {
  it('a declaration is never its own value: ${password} is what the stack sets, secret as declared', async () => {
    const { manifest } = setUp(typed, { 'plumb.dev.yaml': 'config:\n  edge:password: hunter2\n' });
    expect(resolveConfig(manifest, sources())).toEqual([]);
    const values = await outputs(manifest);
    expect(values.password).toBeInstanceOf(Secret);
    expect((values.password as Secret).value).toBe('hunter2');
    expect(values).toMatchObject({ speed: 1000, regions: ['syd'], label: 'plain', namespaced: 'plain' });
  });

  it('--config wins over the environment, which wins over the stack file, which wins over the default', async () => {
    const { manifest } = setUp(typed, { 'plumb.dev.yaml': 'config:\n  edge:password: p\n  edge:speed: 10\n  edge:label: from-file\n  edge:regions: [mel]\n' });
    const problems = resolveConfig(manifest, sources({ env: { PLUMB_CONFIG_speed: '20', PLUMB_CONFIG_label: 'from-env' }, flags: ['label=from-flag', 'regions=["per","adl"]'] }));
    expect(problems).toEqual([]);
    expect(await outputs(manifest)).toMatchObject({ speed: 20, label: 'from-flag', regions: ['per', 'adl'] });
  });

  it('a required value with no setting is an error at its declaration naming how to set it', () => {
    const { manifest } = setUp(typed);
    expect(resolveConfig(manifest, sources())).toEqual([
      {
        severity: 'error',
        summary: 'config password has no value for stack "dev" and no default',
        detail: 'set it: plumb config set password VALUE --secret --stack dev (or --config password=VALUE, or PLUMB_CONFIG_password)',
        pos: { file: manifest.file, line: 3, column: 3 },
      },
    ]);
  });

  it('a value of the wrong type is an error at its place in the stack file, or naming the flag; a secret one is not shown', () => {
    const { manifest } = setUp(typed, { 'plumb.dev.yaml': 'config:\n  edge:password: p\n  edge:speed: fast\n  edge:regions: { a: 1 }\n' });
    const problems = resolveConfig(manifest, sources({ flags: ['label'] }));
    expect(problems.map((d) => `${d.pos ? `${d.pos.line}:${d.pos.column} ` : ''}${d.summary}`)).toEqual([
      '--config label: expected KEY=VALUE',
      '3:15 config speed: "fast" is not an integer',
      '4:17 config regions: {"a":1} is not a list of string',
    ]);
    const secret = setUp('name: edge\nconfig:\n  pin: { type: integer, secret: true }\n', { 'plumb.dev.yaml': 'config:\n  edge:pin:\n    secure: v1:abc\n' });
    expect(resolveConfig(secret.manifest, sources()).map((d) => d.summary)).toEqual(['config pin: the value (secret) is not an integer']);
    // Declared secret but written in plain text (a file, a flag): the value stays out of the message all the same.
    const plain = setUp('name: edge\nconfig:\n  pin: { type: integer, secret: true }\n', { 'plumb.dev.yaml': 'config:\n  edge:pin: hunter2\n' });
    expect(resolveConfig(plain.manifest, sources()).map((d) => d.summary)).toEqual(['config pin: the value (secret) is not an integer']);
    const flag = setUp('name: edge\nconfig:\n  pin: { type: integer, secret: true }\n', {});
    expect(JSON.stringify(resolveConfig(flag.manifest, sources({ flags: ['pin=hunter2'] })))).not.toContain('hunter2');
  });

  it('configuration: (the older spelling) and Pulumi type names are read; a default of another type is an error', () => {
    const old = parseManifest('name: e\nconfiguration:\n  size: { type: Number, default: 1 }\n  names: { type: List<String> }\n', 'm.yaml', { resources: [], functions: [] });
    expect(old.diagnostics).toEqual([]);
    expect(old.manifest.config.names.decl).toMatchObject({ type: 'list', items: 'string', hasDefault: false });
    expect(old.manifest.warnings).toEqual([{ severity: 'warning', summary: 'configuration: is the older spelling of config:; it is read the same way', pos: { file: 'm.yaml', line: 2, column: 1 } }]);
    const bad = parseManifest('name: e\nconfig:\n  size: { type: integer, default: big }\n  odd: { type: decimal }\n', 'm.yaml', { resources: [], functions: [] });
    expect(bad.diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`)).toEqual([
      '3:35 config size: the default is a string, but the type is integer',
      '4:16 config odd: unknown type "decimal"',
    ]);
  });

  it('a value stored secret for a key declared secret: false is refused at that declaration', () => {
    const { manifest } = setUp('name: edge\nconfig:\n  name: { type: string, secret: false }\n', { 'plumb.dev.yaml': 'config:\n  edge:name:\n    secure: v1:abc\n' });
    expect(resolveConfig(manifest, sources()).map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`)).toEqual([
      '3:33 config name is declared secret: false, but its value for this stack is kept secret',
    ]);
  });

  it('provider settings come from the stack file and the flags; a namespace of neither the project nor a provider is refused', () => {
    const { manifest } = setUp('name: edge\nconfig:\n  interconnect:waitTime: 10\n', { 'plumb.dev.yaml': 'config:\n  interconnect:waitTime: 2\n  aws:region: us-east-1\n' });
    const problems = resolveConfig(manifest, sources({ flags: ['interconnect:environment=production'] }));
    expect(problems.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`)).toEqual(['3:15 config aws:region: "aws" is neither this project (edge) nor a provider']);
    expect(manifest.config['interconnect:waitTime']).toMatchObject({ value: { kind: 'value', value: 2 }, source: 'stack', file: join(manifest.dir, 'plumb.dev.yaml') });
    expect(manifest.config['interconnect:environment']).toMatchObject({ value: { value: 'production' }, source: 'flag', label: '--config interconnect:environment' });
  });

  it('${pulumi.stack} is the stack the config is read for', async () => {
    const { manifest } = setUp('name: edge\noutputs:\n  s: ${pulumi.stack}\n');
    resolveConfig(manifest, sources({ stack: 'prod' }));
    expect(await outputs(manifest)).toEqual({ s: 'prod' });
  });
});
