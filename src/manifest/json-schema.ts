/**
 * The manifest language as a JSON Schema (draft 7), for the YAML language server: completion and
 * checks of keys, resource types, their properties (nested types, descriptions, defaults and
 * allowed values), functions and options. Wherever a value goes, an expression (`${...}`, an
 * `fn::` call) may go instead.
 */
import { BUILTIN_FUNCTION_KEYS } from './expressions.js';
import { PROVIDER_PREFIX } from './provider-decl.js';
import { STACK_REFERENCE } from './stack-reference.js';

/** One resource type or function: its token and the JSON Schema of its inputs. */
export interface SchemaEntry {
  token: string;
  description: string;
  inputs: Record<string, unknown>;
}

/** What the schema is made from. */
export interface SchemaSources {
  resources: SchemaEntry[];
  functions: SchemaEntry[];
  providers: Array<{ name: string; settings: Record<string, unknown> }>;
}

type Json = Record<string, any>;

const EXPRESSION = { $ref: '#/definitions/expression' };
/** Any value, in which every mapping with an `fn::` key must be a call of a function plumb has. */
const VALUE = { $ref: '#/definitions/value' };
/** A key that calls a function, in any case, as plumb reads it. */
const FUNCTION_KEY = '^[fF][nN]::';

/** The definition of a type's or function's inputs: its token, without the `/` a JSON pointer would split at. */
function definition(token: string): string {
  return token.replace(/\//g, '.');
}

const ref = (token: string) => ({ $ref: `#/definitions/${definition(token)}` });

/** Each way a token may be written (Pulumi YAML's short forms): `interconnect:Port`, `interconnect:index:Port`, the canonical one. */
export function tokenForms(token: string): string[] {
  const [pkg, module, name] = token.split(':');
  const mod = module.split('/')[0];
  return [...new Set([token, `${pkg}:${mod}:${name}`, ...(mod === 'index' ? [`${pkg}:${name}`] : [])])];
}

/** The JSON Schema of a manifest. */
export function manifestJsonSchema(sources: SchemaSources): Json {
  const definitions: Json = { expression: expression(sources.functions), value: value(), options: options(), configDeclaration: configDeclaration() };
  for (const r of sources.resources) definitions[definition(r.token)] = accepting(strip(r.inputs));
  for (const f of sources.functions) definitions[definition(f.token)] = accepting(strip(f.inputs));
  const settings: Json = {};
  for (const p of sources.providers) {
    for (const [name, schema] of Object.entries((strip(p.settings).properties ?? {}) as Json)) settings[`${p.name}:${name}`] = accepting(schema);
  }
  const config = {
    type: 'object',
    description: 'Provider settings (<provider>:<setting>) and the values the manifest uses, each a value or a declaration',
    properties: settings,
    additionalProperties: { anyOf: [{ $ref: '#/definitions/configDeclaration' }, {}] },
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'plumb manifest',
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The project: state is kept per project and stack, and it is ${pulumi.project}' },
      runtime: {
        description: 'yaml: plumb runs Pulumi YAML programs',
        anyOf: [{ const: 'yaml' }, { type: 'object', properties: { name: { const: 'yaml' } }, required: ['name'], additionalProperties: false }],
      },
      template: { type: 'object', description: 'Accepted and ignored: what `pulumi new` asks when it makes a project from this one' },
      author: { type: 'string', description: 'Accepted and ignored: describes the project' },
      website: { type: 'string', description: 'Accepted and ignored: describes the project' },
      license: { type: 'string', description: 'Accepted and ignored: describes the project' },
      description: { type: 'string' },
      config,
      configuration: { ...config, description: 'The older spelling of config' },
      variables: { type: 'object', description: 'Named values, evaluated once each', additionalProperties: VALUE },
      resources: { type: 'object', description: 'The resources to manage, by address', additionalProperties: resource(sources.resources, sources.providers) },
      outputs: { type: 'object', description: 'Stack outputs', additionalProperties: VALUE },
    },
    additionalProperties: false,
    definitions,
  };
}

/** A resource: its type picks the schema of its properties. */
function resource(resources: SchemaEntry[], providers: SchemaSources['providers']): Json {
  const explicit = providers.map((p) => ({
    if: { properties: { type: { const: `${PROVIDER_PREFIX}${p.name}` } }, required: ['type'] },
    then: {
      properties: {
        properties: { description: `Settings of one more ${p.name} connection (the keys of config ${p.name}:<key>)`, anyOf: [accepting(strip(p.settings)), EXPRESSION] },
        // A provider resource makes no remote object: only the options that do not act on one.
        options: { propertyNames: { enum: ['version', 'pluginDownloadURL', 'dependsOn'] } },
      },
    },
  }));
  return {
    type: 'object',
    required: ['type'],
    properties: {
      type: { description: 'The resource type token', enum: [...resources.flatMap((r) => tokenForms(r.token)), STACK_REFERENCE, ...providers.map((p) => PROVIDER_PREFIX + p.name)] },
      name: { type: 'string', description: "The logical name, the last part of the resource's URN (its address stays its key under resources:)" },
      defaultProvider: { type: 'boolean', description: 'On a provider resource: every resource and call of its provider that names no provider goes through it' },
      properties: { description: 'The inputs: a mapping, or one expression whose value is one', ...VALUE },
      options: { $ref: '#/definitions/options' },
      get: {
        type: 'object',
        description: 'Read the existing object with this id (the import id format of its type) without managing it',
        required: ['id'],
        properties: { id: { description: 'The id of the object to read' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
    allOf: [
      { if: { properties: { type: { pattern: `^${PROVIDER_PREFIX}` } } }, else: { not: { required: ['defaultProvider'] } } },
      ...resources.map((r) => ({
        if: { properties: { type: { enum: tokenForms(r.token) } }, required: ['type'] },
        then: { properties: { properties: { description: r.description, anyOf: [ref(r.token), EXPRESSION] } } },
      })),
      ...explicit,
    ],
  };
}

/** `${...}` alone, or a mapping with one `fn::` key: completion offers fn::invoke and each function's shorthand. */
function expression(functions: SchemaEntry[]): Json {
  const shorthand: Json = {};
  for (const f of functions) for (const form of tokenForms(f.token)) shorthand[`fn::${form}`] = { description: f.description, anyOf: [ref(f.token), { type: 'null' }] };
  const invoke = {
    type: 'object',
    required: ['function'],
    properties: {
      function: { description: 'The function token', enum: functions.flatMap((f) => tokenForms(f.token)) },
      arguments: { type: 'object' },
      options: {
        type: 'object',
        properties: {
          dependsOn: { description: 'Resources the call waits for' },
          parent: { description: 'A resource the call is ordered after' },
          provider: { description: 'The provider resource (pulumi:providers:<provider>) the call goes through: ${name}' },
          ...PINS,
        },
        additionalProperties: false,
      },
      return: { type: 'string', description: 'One field of the result' },
    },
    additionalProperties: false,
    allOf: functions.map((f) => ({ if: { properties: { function: { enum: tokenForms(f.token) } }, required: ['function'] }, then: { properties: { arguments: ref(f.token) } } })),
  };
  return {
    anyOf: [
      { type: 'string', pattern: '\\$\\{', description: 'A reference, or text with references in it: ${name}, ${resource.field}, ${pulumi.stack}' },
      {
        type: 'object',
        minProperties: 1,
        maxProperties: 1,
        properties: { ...builtins(), 'fn::invoke': invoke, 'fn::stackReference': { description: "[stack, output]: another stack's output at the same state location", ...VALUE }, ...shorthand },
        // The built-in functions in any case, as plumb reads them; any other fn:: key is refused.
        patternProperties: { [`^[fF][nN]::(${BUILTIN_FUNCTION_KEYS.map((key) => caseless(key.slice(4))).join('|')})$`]: {} },
        additionalProperties: false,
      },
    ],
  };
}

/** The built-in functions, each taking any value (in which calls are checked in turn). */
function builtins(): Json {
  return Object.fromEntries(BUILTIN_FUNCTION_KEYS.filter((key) => key !== 'fn::invoke' && key !== 'fn::stackReference').map((key) => [key, VALUE]));
}

/** A regular expression source matching `word` in any case. */
function caseless(word: string): string {
  return [...word].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toLowerCase()}${ch.toUpperCase()}]` : ch)).join('');
}

/**
 * Any value, where a mapping with an `fn::` key must be an expression (a call of a function
 * plumb has): an unknown function is flagged wherever it is written.
 */
function value(): Json {
  return {
    anyOf: [
      { type: ['string', 'number', 'boolean', 'null'] },
      { type: 'array', items: VALUE },
      { type: 'object', propertyNames: { not: { pattern: FUNCTION_KEY } }, additionalProperties: VALUE },
      EXPRESSION,
    ],
  };
}

/** Provider pins: accepted, and ignored (plumb's providers are built in). */
const PINS = {
  version: { type: 'string', description: "Ignored (noted once): plumb's providers are built in, there is no plugin version to choose" },
  pluginDownloadURL: { type: 'string', description: "Ignored (noted once): plumb's providers are built in, there is no plugin to download" },
};

/** The resource options plumb reads. */
function options(): Json {
  const paths = (description: string) => ({ type: 'array', items: { type: 'string' }, description });
  return {
    type: 'object',
    properties: {
      dependsOn: { description: 'Resources to create first: ${name} or a list of them' },
      protect: { description: 'Refuse to delete or replace it: true, false or an expression known when planning', anyOf: [{ type: 'boolean' }, EXPRESSION] },
      ignoreChanges: paths('Property paths whose changes are ignored'),
      replaceOnChanges: paths('Property paths whose changes replace the resource'),
      deleteBeforeReplace: { type: 'boolean', description: 'Delete the old object before creating its replacement' },
      retainOnDelete: { type: 'boolean', description: 'Only forget the object when it leaves the manifest' },
      import: { type: 'string', description: 'The id of an existing object to adopt' },
      customTimeouts: {
        type: 'object',
        properties: Object.fromEntries(
          ['create', 'update', 'delete', 'read'].map((k) => [k, { anyOf: [{ type: 'string', pattern: '^(\\d+(\\.\\d+)?h)?(\\d+(\\.\\d+)?m)?(\\d+(\\.\\d+)?s)?$' }, EXPRESSION] }]),
        ),
        additionalProperties: false,
      },
      additionalSecretOutputs: paths('Outputs kept secret in state and display'),
      deletedWith: { description: 'A resource whose deletion deletes this one (no delete call is made for it then)' },
      replacementTrigger: { description: 'Any value: a change of it replaces the resource' },
      hideDiffs: paths('Property paths whose diffs the plan does not show'),
      aliases: {
        type: 'array',
        description: 'Addresses the resource was recorded under before: a rename moves its record, with no replacement',
        items: {
          anyOf: [
            { type: 'string', description: 'An old address, or a URN whose last part is one; ${...} may use config, variables and lookups' },
            { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string' }, urn: { type: 'string' } }, additionalProperties: false },
          ],
        },
      },
      provider: { description: 'The provider resource (pulumi:providers:<provider>) whose connection manages it: ${name}; moving to another replaces it' },
      parent: { description: "The resource this one is a child of: made after it, its type before this one's in the URN, its provider, protect and retainOnDelete taken unless set here" },
      ...PINS,
      providers: {
        description: 'Provider resources by provider name ({ cloud: ${east} }), or a list of them: the one of its own provider is used',
        anyOf: [
          { type: 'object', additionalProperties: { type: 'string' } },
          { type: 'array', items: { type: 'string' } },
        ],
      },
    },
    additionalProperties: false,
  };
}

/** A typed config declaration. */
function configDeclaration(): Json {
  const types = ['string', 'integer', 'int', 'number', 'boolean', 'bool', 'list', 'array', 'object'];
  return {
    type: 'object',
    properties: {
      type: { description: 'The value type', anyOf: [{ enum: types }, { type: 'string', pattern: '^[Ll]ist<.+>$' }] },
      default: { description: 'The value for a stack that sets none (without one, every stack must set it)' },
      value: { description: "Pulumi's project config spelling of default: the value for every stack that sets none" },
      secret: { type: 'boolean', description: 'Keep the value secret (and encrypted when set)' },
      items: { type: 'object', properties: { type: { enum: types } }, description: 'The type of each item of a list' },
      description: { type: 'string' },
      name: { type: 'string', description: 'The key to look the value up under' },
    },
    additionalProperties: false,
  };
}

/**
 * A zod JSON Schema without its `$schema`, with plumb's `allowed` values as `enum` (which the
 * editor knows), and without what only the checks read: the API's names of fields (`aka`, for
 * hints) and why a map is free-form (`freeForm`). Keys of `properties` and `definitions` are
 * names, not keywords, and are kept as they are.
 */
function strip(schema: Json): Json {
  const NAMES = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$schema' || key === 'aka' || key === 'freeForm') continue;
      if (key === 'allowed') out.enum = value;
      else if (NAMES.has(key) && value && typeof value === 'object') out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, v]) => [name, walk(v)]));
      else out[key] = walk(value);
    }
    return out;
  };
  return walk(schema) as Json;
}

/** An object schema whose every value (at any depth) may be an expression instead. */
function accepting(schema: Json): Json {
  const walk = (node: Json): Json => {
    const out: Json = { ...node };
    if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties as Json).map(([k, v]) => [k, valueOrExpression(walk(v as Json))]));
    if (out.items && typeof out.items === 'object') out.items = valueOrExpression(walk(out.items as Json));
    if (out.additionalProperties && typeof out.additionalProperties === 'object') out.additionalProperties = valueOrExpression(walk(out.additionalProperties as Json));
    for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(out[key])) out[key] = (out[key] as Json[]).map(walk);
    return out;
  };
  return walk(schema);
}

/** A value's schema, or an expression (a string too: `fn::join` gives one); the description stays on the outside, where the editor shows it. */
function valueOrExpression(schema: Json): Json {
  const { description, default: fallback, ...rest } = schema;
  return { ...(description ? { description } : {}), ...(fallback !== undefined ? { default: fallback } : {}), anyOf: [rest, EXPRESSION] };
}
