import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeToken, editorSchema } from '../../src/cli/schema.js';
import { tokenForms } from '../../src/manifest/json-schema.js';
import { loadFunctions, loadResourceTypes } from '../../src/cli/catalog.js';
import { plumb } from '../support/cli.js';

const root = resolve(import.meta.dirname, '../..');
const resourceTypes = await loadResourceTypes();
const functions = await loadFunctions();
const schema = editorSchema(resourceTypes, functions) as Record<string, any>;
const definition = (token: string) => schema.definitions[token.replace(/\//g, '.')];
/** A value's own schema inside the `anyOf: [value, expression]` every typed value gets. */
const own = (node: any) => (node.anyOf ? node.anyOf[0] : node);

describe('the JSON Schema of manifests (plumb schema --json-schema)', () => {
  it('is what the CLI prints, and the file the README points the YAML language server at', async () => {
    const { stdout, code } = await plumb(['schema', '--json-schema'], { cwd: root });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(schema);
    expect(JSON.parse(readFileSync(resolve(root, 'docs/reference/plumb.schema.json'), 'utf8'))).toEqual(schema);
    expect(readFileSync(resolve(root, 'README.md'), 'utf8')).toContain('# yaml-language-server: $schema=');
  });

  it('knows every resource type by each way its token may be written, and every function', () => {
    const types = schema.properties.resources.additionalProperties.properties.type.enum;
    for (const token of resourceTypes.keys()) expect(types).toEqual(expect.arrayContaining(tokenForms(token)));
    expect(types).toContain('interconnect:Port');
    for (const token of functions.keys()) expect(definition(token)).toBeDefined();
    const expression = schema.definitions.expression.anyOf[1].properties;
    expect(Object.keys(expression)).toEqual(expect.arrayContaining(['fn::invoke', 'fn::interconnect:getLocation', 'fn::interconnect:index/getLocation:getLocation']));
  });

  it('describes nested types with their descriptions, defaults and allowed values', () => {
    const vxc = definition('interconnect:index/vxc:Vxc');
    const aEnd = own(vxc.properties.aEnd);
    expect(vxc.properties.aEnd.description).toBe('Where the VXC starts (one of your Ports, MCRs or MVEs). Changed in place.');
    expect(aEnd.required).toEqual(['requestedProductUid']);
    expect(aEnd.properties.vlan.description).toMatch(/^VLAN at this end/);
    const kinds = own(vxc.properties.bEndPartnerConfig).oneOf.map((kind: any) => own(kind.properties.partner).const);
    expect(kinds).toEqual(['aws', 'azure', 'google', 'oracle', 'ibm', 'transit', 'vrouter']);
    expect(own(vxc.properties.contractTermMonths).enum).toEqual([1, 12, 24, 36, 48, 60]);
    const entries = own(definition('interconnect:index/mcrPrefixFilterList:McrPrefixFilterList').properties.entries);
    expect(own(own(entries.items).properties.action).enum).toEqual(['permit', 'deny']);
    expect(own(definition('interconnect:index/serviceKey:ServiceKey').properties.validFor).required).toEqual(['startTime', 'endTime']);
  });

  it('takes an expression wherever a value goes, and reads options and config declarations as plumb does', () => {
    const port = definition('interconnect:index/port:Port');
    expect(port.properties.portSpeed.anyOf[1]).toEqual({ $ref: '#/definitions/expression' });
    expect(Object.keys(schema.definitions.options.properties)).toEqual([
      'dependsOn',
      'protect',
      'ignoreChanges',
      'replaceOnChanges',
      'deleteBeforeReplace',
      'retainOnDelete',
      'import',
      'customTimeouts',
      'additionalSecretOutputs',
      'deletedWith',
      'replacementTrigger',
      'hideDiffs',
      'aliases',
      'provider',
      'parent',
      'version',
      'pluginDownloadURL',
      'providers',
    ]);
    expect(schema.definitions.options.additionalProperties).toBe(false);
    expect(own(schema.properties.config.properties['interconnect:waitTime']).type).toBe('number');
    expect(Object.keys(schema.definitions.configDeclaration.properties)).toEqual(['type', 'default', 'value', 'secret', 'items', 'description', 'name']);
  });

  it('knows provider resources: their types, and their settings as properties', () => {
    const resource = schema.properties.resources.additionalProperties;
    expect(resource.properties.type.enum).toEqual(expect.arrayContaining(['pulumi:providers:interconnect', 'pulumi:providers:cloud', 'pulumi:providers:pipeline']));
    const cloud = resource.allOf.find((c: any) => c.if.properties.type.const === 'pulumi:providers:cloud');
    const settings = cloud.then.properties.properties.anyOf[0];
    expect(Object.keys(own(settings).properties)).toEqual(expect.arrayContaining(['region', 'projectId', 'privateKey']));
    expect(schema.definitions.expression.anyOf[1].properties['fn::invoke'].properties.options.properties.provider).toBeDefined();
  });
});

describe('plumb schema TOKEN and the reference docs show nested types', () => {
  it('the fields of a VXC end, each partner config kind and a prefix list entry', async () => {
    const { stdout } = await plumb(['schema', 'interconnect:Vxc'], { cwd: root });
    expect(stdout).toContain('  aEnd (required): object [in place]\n      Where the VXC starts (one of your Ports, MCRs or MVEs). Changed in place.\n    requestedProductUid (required): string\n');
    expect(stdout).toContain('    when partner: aws:\n      partner (required): "aws"\n      connectType: string one of AWS, AWSHC\n');
    const doc = describeToken('interconnect:index/mcrPrefixFilterList:McrPrefixFilterList', resourceTypes, functions);
    expect(doc.inputs.find((f) => f.name === 'entries')?.fields?.map((f) => f.name)).toEqual(['action', 'prefix', 'ge', 'le']);
    const page = readFileSync(resolve(root, 'docs/reference/interconnect/Vxc.md'), 'utf8');
    expect(page).toContain('| `aEnd` | [object](#aend) | yes |');
    expect(page).toContain('### bEndPartnerConfig (partner: aws)');
    expect(readFileSync(resolve(root, 'docs/reference/interconnect/ServiceKey.md'), 'utf8')).toContain('### validFor\n\n| name | type | required | description |');
  });
});

describe('plumb schema TOKEN and the reference docs say how to import, what replaces and what is sealed', () => {
  it('a webhook: its import id, the rule that replaces it, its secret; a connection: the config keys sealed', async () => {
    const { stdout } = await plumb(['schema', 'pipeline:Webhook'], { cwd: root });
    expect(stdout).toContain('Import: plumb import NAME pipeline:index/webhook:Webhook <webhook_id>\n');
    expect(stdout).toMatch(/Replaced when these change \(the API cannot change them in place\):\n {2}groupId: a webhook's scope is fixed at creation/);
    expect(stdout).toContain('  secret: string [in place] [secret]\n');
    const connection = await plumb(['schema', 'pipeline:Connection'], { cwd: root });
    expect(connection.stdout).toMatch(/\n {2}config: .*\[secret keys sealed\]/);
    const page = readFileSync(resolve(root, 'docs/reference/pipeline/Webhook.md'), 'utf8');
    expect(page).toContain('## Import\n\n```\nplumb import NAME pipeline:index/webhook:Webhook <webhook_id>\n```');
    expect(page).toContain("## Replaced when\n\nA change to these inputs replaces the object: the API cannot change them in place.\n\n- `groupId`: a webhook's scope");
    expect(page).toMatch(/\| `secret` \| string \| no \| in place \| \[secret\] Secret the payloads/);
  });
});
