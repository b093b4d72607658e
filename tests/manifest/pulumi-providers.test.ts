import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkManifest } from '../../src/engine/checking/check-manifest.js';
import type { CatalogProvider, EngineCatalog } from '../../src/engine/contracts/catalog.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { maskSecrets } from '../../src/kernel/secret-mask.js';

const catalog = { resources: ['interconnect:index/port:Port', 'cloud:index/vpc:Vpc'], functions: ['interconnect:index/getLocation:getLocation'] };
const parse = (yaml: string) => parseManifest(yaml, 'm.yaml', catalog);
const errors = (yaml: string) => parse(yaml).diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}${d.detail ? ` (${d.detail})` : ''}`);

const providers = `name: p
variables:
  plain: 1
resources:
  second:
    type: pulumi:providers:interconnect
    properties: { environment: staging }
  east:
    type: pulumi:providers:cloud
    properties: { region: cn-sh2 }
  port:
    type: interconnect:Port
    properties: { productName: p }
`;

describe('pulumi:providers resources', () => {
  it('are kept apart from the resources; options.provider and providers choose one, and the rest use the default', () => {
    const { manifest, diagnostics } = parse(
      `${providers}    options: { provider: "\${second}" }\n  vpc:\n    type: cloud:Vpc\n    properties: { name: v }\n    options: { providers: { cloud: "\${east}", interconnect: "\${second}" } }\n  plainVpc:\n    type: cloud:Vpc\n    properties: { name: w }\n    options: { providers: ["\${second}"] }\n`,
    );
    expect(diagnostics).toEqual([]);
    expect(Object.keys(manifest.resources)).toEqual(['port', 'vpc', 'plainVpc']);
    expect(Object.keys(manifest.providers)).toEqual(['second', 'east']);
    expect(manifest.providers.east).toMatchObject({ provider: 'cloud', pos: { line: 8, column: 3 } });
    expect([manifest.resources.port.provider, manifest.resources.vpc.provider, manifest.resources.plainVpc.provider]).toEqual(['second', 'east', undefined]);
  });

  it('a provider option naming no provider resource, or one of another provider, is an error at the reference', () => {
    expect(errors(`${providers}    options: { provider: "\${plain}" }\n`)).toEqual([
      '14:26 ${plain} is a variable, not a provider resource (declare one with type: pulumi:providers:interconnect and name it as ${name})',
    ]);
    expect(errors(`${providers}    options: { provider: "\${east}" }\n`)).toEqual([
      '14:26 ${east} is a cloud provider; port is an interconnect resource (name a pulumi:providers:interconnect resource)',
    ]);
    expect(errors(`${providers}    options: { providers: { interconnect: "\${east}" } }\n`)).toEqual([
      '14:43 providers.interconnect names ${east}, a cloud provider (name a pulumi:providers:interconnect resource)',
    ]);
    expect(errors(`${providers}    options: { provider: "\${nowhere}" }\n`)).toEqual([
      '14:26 ${nowhere} is not declared, not a provider resource (declare one with type: pulumi:providers:interconnect and name it as ${name})',
    ]);
  });

  it('fn::invoke takes options.provider, checked the same way', () => {
    const call = (provider: string) =>
      `${providers}variables:\n  syd:\n    fn::invoke:\n      function: interconnect:getLocation\n      arguments: { id: 2 }\n      options: { provider: "\${${provider}}" }\n`.replace(
        'variables:\n  plain: 1\n',
        '',
      );
    const { manifest, diagnostics } = parse(call('second'));
    expect(diagnostics).toEqual([]);
    expect(manifest.variables.syd).toMatchObject({ kind: 'invoke', provider: { root: 'second' } });
    expect(errors(call('east'))).toEqual(['17:28 ${east} is a cloud provider; this is an interconnect function (name a pulumi:providers:interconnect resource)']);
  });

  it('an unknown provider type and options a provider resource cannot use are errors at their key', () => {
    expect(errors('name: p\nresources:\n  x:\n    type: pulumi:providers:aws\n  y:\n    type: pulumi:providers:cloud\n    colour: red\n    options: { version: 1.0.0, protect: true }\n')).toEqual([
      '4:11 unknown provider "aws" (provider resource types: pulumi:providers:interconnect, pulumi:providers:cloud)',
      '7:5 "colour" is not supported on the provider "y" (a provider resource takes type, name, defaultProvider, properties and options)',
      '8:32 option "protect" is not supported on the provider "y" (a provider resource makes no remote object: there is nothing to protect, replace, import, time or keep; it takes version, pluginDownloadURL (both ignored) and dependsOn)',
    ]);
    expect(errors('name: p\nresources:\n  y:\n    type: pulumi:providers:cloud\n    options:\n      envVarMappings: { CLOUD_KEY: KEY }\n')).toEqual([
      '6:7 option "envVarMappings" is not supported on the provider "y" (plumb\'s providers are built in: their settings are config keys and their own environment variables)',
    ]);
  });

  it('name, options and defaultProvider on a provider resource: its URN name, pins noted once, the provider of everything that names none', () => {
    const yaml =
      `${providers.replace('    properties: { environment: staging }\n', '    name: second-connection\n    defaultProvider: true\n    options: { version: 1.2.3, dependsOn: ["\${east}"] }\n    properties: { environment: staging }\n')}  vpc:\n    type: cloud:Vpc\n    properties: { name: v }\nvariables:\n  syd:\n    fn::invoke: { function: interconnect:getLocation, arguments: { id: 2 } }\n`.replace(
        'variables:\n  plain: 1\n',
        '',
      );
    const { manifest, diagnostics } = parse(yaml);
    expect(diagnostics).toEqual([]);
    expect(manifest.providers.second).toMatchObject({ name: 'second-connection', defaultProvider: true, dependsOn: [{ root: 'east' }] });
    expect(manifest.resources.port.provider).toBe('second');
    expect(manifest.resources.vpc.provider).toBeUndefined();
    expect(manifest.variables.syd).toMatchObject({ kind: 'invoke', provider: { root: 'second' } });
    expect(manifest.warnings.map((w) => `${w.pos?.line}:${w.pos?.column} ${w.summary}`)).toEqual([
      "7:25 options.version (second) ignored: plumb's providers are built in, so there is no plugin to pin or download",
    ]);
    const twice = yaml.replace('    properties: { region: cn-sh2 }\n', '    properties: { region: cn-sh2 }\n  third:\n    type: pulumi:providers:interconnect\n    defaultProvider: true\n');
    expect(errors(twice)).toEqual(['12:3 "third" and "second" are both the default interconnect provider (set defaultProvider: true on one of them)']);
    expect(errors('name: p\nresources:\n  x:\n    type: interconnect:Port\n    defaultProvider: true\n')[0]).toMatch(/^5:5 "defaultProvider" is not supported in resource "x"/);
  });
});

describe('provider resource settings', () => {
  const fake: CatalogProvider = {
    name: 'fake',
    settings: z.object({ region: z.string().default('north'), token: z.string().optional(), waitTime: z.number().int().positive().optional() }).strict(),
    envVars: { FAKE_TOKEN: 'token' },
    secretSettings: ['token'],
  };
  const fakeCatalog: EngineCatalog = {
    resourceTypes: new Map([['fake:index/thing:Thing', { token: 'fake:index/thing:Thing', inputs: z.object({ name: z.string() }).strict(), outputs: z.object({ uid: z.string() }) }]]),
    providers: [fake],
    functions: async () => new Map(),
  };
  const check = (properties: string, env: Record<string, string> = {}) =>
    checkManifest(
      `name: s\nconfig:\n  key:\n    type: string\n    secret: true\n    default: s3cr3t-token-value\nresources:\n  second:\n    type: pulumi:providers:fake\n    properties: ${properties}\n  t:\n    type: fake:Thing\n    properties: { name: t }\n    options: { provider: "\${second}" }\n`,
      'm.yaml',
      fakeCatalog,
      { env },
    );

  it('are parsed as config settings are, with secrets masked; an unset one comes from the provider’s variable', async () => {
    const { value, diagnostics } = await check('{ region: south, token: "${key}" }');
    expect(diagnostics).toEqual([]);
    expect(value!.instances.get('second')).toEqual({ provider: 'fake', settings: { region: 'south', token: 's3cr3t-token-value' } });
    expect(maskSecrets('token s3cr3t-token-value')).not.toContain('s3cr3t-token-value');
    const fromEnv = await check('{ region: south }', { FAKE_TOKEN: 'from-env' });
    expect(fromEnv.value!.instances.get('second')!.settings.token).toBe('from-env');
  });

  it('a wrong or unknown setting is an error at its property', async () => {
    const { diagnostics } = await check('{ region: 3, regoin: x, waitTime: -1 }');
    expect(diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`)).toEqual([
      '10:27 second.region must be a string, not a number (3)',
      '10:30 second: unknown setting "regoin" of the fake provider',
      '10:51 second.waitTime -1 is not valid: must be more than 0',
    ]);
  });
});
