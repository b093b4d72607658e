import * as z from 'zod';
import { strict } from '../engine/contracts/strict.js';
import { UserError } from '../kernel/errors.js';
import { manifestJsonSchema } from '../manifest/json-schema.js';
import { resolveToken } from '../manifest/tokens.js';
import { tokenHint } from '../kernel/did-you-mean.js';
import { loadFunctions, loadResourceTypes, providers } from './catalog.js';
import type { LookupFunction } from '../engine/contracts/lookup.js';
import type { ResourceType } from '../engine/contracts/resource-type.js';
import { costDoc, costWords, type CostDoc } from './type-cost.js';

/** `plumb schema [TOKEN] [--json] [--json-schema]`: lists every type and function, describes one, or writes the manifest language's JSON Schema. */
export async function schemaCommand(raw: string | undefined, opts: { json?: boolean; jsonSchema?: boolean }): Promise<number> {
  const [resourceTypes, functions] = await Promise.all([loadResourceTypes(), loadFunctions()]);
  if (opts.jsonSchema) {
    process.stdout.write(`${JSON.stringify(editorSchema(resourceTypes, functions), null, 2)}\n`);
    return 0;
  }
  if (!raw) {
    const rows = [
      ...[...resourceTypes.values()].map((r) => ({ kind: 'resource', token: r.token, description: r.description })),
      ...[...functions.values()].map((f) => ({ kind: 'function', token: f.token, description: f.description })),
    ];
    if (opts.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else for (const r of rows) process.stdout.write(`${r.kind.padEnd(9)} ${r.token}\n          ${r.description}\n`);
    return 0;
  }
  const token = resolveToken(raw, [...resourceTypes.keys(), ...functions.keys()]);
  if (!token) throw new UserError(`unknown type or function "${raw}"`, tokenHint(raw, [...resourceTypes.keys(), ...functions.keys()]));
  const doc = describeToken(token, resourceTypes, functions);
  if (opts.json) process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  else process.stdout.write(`${renderDoc(doc)}\n`);
  return 0;
}

/**
 * The JSON Schema of the manifest language, with every type's and function's inputs (for the YAML
 * language server), as strict as the checks: every object but a declared free-form map has
 * `additionalProperties: false`.
 */
export function editorSchema(resourceTypes: ReadonlyMap<string, ResourceType>, functions: ReadonlyMap<string, LookupFunction>): Record<string, unknown> {
  const json = (schema: z.core.$ZodType) => z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  return manifestJsonSchema({
    resources: [...resourceTypes.values()].map((t) => ({ token: t.token, description: t.description, inputs: withChanges(t, json(strict(t.inputs))) })),
    functions: [...functions.values()].map((f) => ({ token: f.token, description: f.description, inputs: json(strict(f.args)) })),
    providers: providers.map((p) => ({ name: p.name, settings: json(p.settings) })),
  });
}

/** An input schema whose top-level fields' descriptions end with how a change of each is made. */
function withChanges(type: ResourceType, json: Record<string, unknown>): Record<string, unknown> {
  const properties = json.properties as Record<string, { description?: string }> | undefined;
  if (!properties) return json;
  const described = Object.entries(properties).map(([name, prop]) => [name, { ...prop, description: withChange(prop.description, changeSentence(type, name)) }]);
  return { ...json, properties: Object.fromEntries(described) };
}

/** How a change of a field is applied, in words. */
export const CHANGE_WORDS = { replace: 'replace', sometimes: 'replace or in place, by value (see description)', update: 'in place', recorded: 'recorded only (sent with the order)' } as const;

/** A field as `plumb schema` and the reference docs describe it, with the fields of the type it holds. */
export interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  default?: unknown;
  allowed?: unknown[];
  change?: keyof typeof CHANGE_WORDS;
  /** Sealed in plans and state: the whole value, or only some of its keys (a service's config). */
  secret?: 'whole' | 'some keys';
  /** The fields of an object (or of each item of a list of objects). */
  fields?: FieldDoc[];
  /** The kinds of an object that is one of several, each named by the value of the field that tells them apart. */
  variants?: Array<{ name: string; fields: FieldDoc[] }>;
}

/** The documentation of one type or function, generated from its schemas. */
export interface TokenDoc {
  token: string;
  kind: string;
  description: string;
  inputs: FieldDoc[];
  outputs: FieldDoc[];
  /** A resource's import id, as `plumb import ADDRESS ID` takes it. */
  importId?: string;
  /** A resource's inputs whose change replaces it, each with the API's rule. */
  replaceRules?: Array<{ path: string; reason: string }>;
  /** What a resource costs: the call that prices it, or why it has no price. */
  cost?: CostDoc;
}

/** The documentation of one type or function, generated from its schemas. */
export function describeToken(token: string, resourceTypes: ReadonlyMap<string, ResourceType>, functions: ReadonlyMap<string, LookupFunction>): TokenDoc {
  const type = resourceTypes.get(token);
  if (type) {
    const secrets = type.secrets?.paths ?? [];
    const replaceRules = type.replace.on.map(({ path, reason }) => ({ path, reason }));
    return {
      token,
      kind: 'resource',
      description: type.description,
      inputs: marked(fields(type.inputs, type), secrets),
      outputs: marked(fields(type.outputs), secrets),
      importId: type.importId?.format,
      replaceRules,
      cost: costDoc(type),
    };
  }
  const fn = functions.get(token)!;
  return { token, kind: 'function', description: fn.description, inputs: fields(fn.args), outputs: fields(fn.result) };
}

/** Marks the fields a type seals: a path named whole, or a field some of whose keys are named. */
function marked(list: FieldDoc[], secretPaths: string[], path = ''): FieldDoc[] {
  if (!secretPaths.length) return list;
  return list.map((f) => {
    const at = path ? `${path}.${f.name}` : f.name;
    const secret = secretPaths.includes(at) ? 'whole' : secretPaths.some((p) => p.startsWith(`${at}.`)) && !f.fields && !f.variants ? 'some keys' : undefined;
    const inner = f.fields && marked(f.fields, secretPaths, at);
    const variants = f.variants?.map((v) => ({ ...v, fields: marked(v.fields, secretPaths, at) }));
    return { ...f, ...(secret && { secret }), ...(inner && { fields: inner }), ...(variants && { variants }) };
  });
}

function fields(schema: z.core.$ZodType, type?: ResourceType): FieldDoc[] {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  return objectFields(json).map((f) => (type ? { ...f, change: changeOf(type, f.name), description: withChange(f.description, changeSentence(type, f.name)) } : f));
}

/** A description followed by the sentence saying how a change is made. */
function withChange(description: string | undefined, sentence: string): string {
  return description ? `${description} ${sentence}` : sentence;
}

/** A JSON Schema node as zod writes one. */
type JsonSchema = Record<string, any>;

/** The fields of an object schema, each with the fields of what it holds. */
function objectFields(json: JsonSchema): FieldDoc[] {
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, prop]) => ({
    name,
    type: typeName(prop),
    required: ((json.required ?? []) as string[]).includes(name),
    description: prop.description,
    default: prop.default,
    allowed: prop.allowed ?? prop.enum,
    ...nested(prop),
  }));
}

/** What an object, a list of objects, or a choice of objects holds. */
function nested(prop: JsonSchema): Pick<FieldDoc, 'fields' | 'variants'> {
  const inner = prop.type === 'array' ? (prop.items ?? {}) : prop;
  const choices = (inner.oneOf ?? inner.anyOf) as JsonSchema[] | undefined;
  if (choices?.length && choices.every((c) => c.type === 'object' && c.properties)) {
    const tag = discriminator(choices);
    return { variants: choices.map((c, i) => ({ name: tag ? `${tag}: ${c.properties[tag].const}` : `kind ${i + 1}`, fields: objectFields(c) })) };
  }
  if (inner.type === 'object' && inner.properties) return { fields: objectFields(inner) };
  return {};
}

/** The field whose constant value tells a choice of objects apart (`partner`), if there is one. */
function discriminator(choices: JsonSchema[]): string | undefined {
  const names = Object.keys(choices[0].properties).filter((name) => choices.every((c) => c.properties[name]?.const !== undefined));
  return names[0];
}

/** What a change to one input does: static replace rules first, then value-dependent ones. */
export function changeOf(type: ResourceType, name: string): NonNullable<FieldDoc['change']> {
  if (rulesOn(type, name).length) return 'replace';
  if (type.replace.when?.inputs.includes(name)) return 'sometimes';
  return type.diff?.recordOnly?.includes(name) ? 'recorded' : 'update';
}

/** The static replace rules on an input or on a path inside it. */
function rulesOn(type: ResourceType, name: string): ResourceType['replace']['on'] {
  return type.replace.on.filter((r) => r.path === name || r.path.startsWith(`${name}.`));
}

/**
 * How a change of one top-level input is made, as a sentence generated from the type's rules
 * (the replace rule's reason included), so that no description says it by hand and none can
 * disagree with what the plan does. Which values replace an input replaced by value is the
 * description's to say, since the rule deciding it is code; the sentence covers the rest.
 */
export function changeSentence(type: ResourceType, name: string): string {
  const rules = rulesOn(type, name);
  const change = changeOf(type, name);
  if (change === 'replace') {
    const what = rules.some((r) => r.path === name) ? 'Changing it' : `Changing ${rules.map((r) => `\`${r.path}\``).join(' or ')}`;
    return `${what} replaces the object: ${rules.map((r) => r.reason).join('; ')}.`;
  }
  if (change === 'sometimes') return 'Any other change is made in place.';
  if (change === 'recorded') return 'Sent only with the order: a later change is recorded, not sent.';
  return 'Changed in place.';
}

function typeName(prop: JsonSchema): string {
  if (prop.type === 'array') return `list<${typeName(prop.items ?? {})}>`;
  if (prop.type === 'object' && prop.additionalProperties && typeof prop.additionalProperties === 'object') return `map<${typeName(prop.additionalProperties)}>`;
  const choices = (prop.anyOf ?? prop.oneOf) as JsonSchema[] | undefined;
  if (choices?.length && choices.every((c) => c.type === 'object' && c.properties)) {
    const tag = discriminator(choices);
    return tag ? `object, by ${tag}: ${choices.map((c) => c.properties[tag].const).join(' | ')}` : `object (${choices.length} kinds)`;
  }
  if (choices) return choices.map(typeName).join(' | ');
  if (Array.isArray(prop.type)) return prop.type.map((t: string) => typeName({ ...prop, type: t })).join(' | ');
  if (prop.const !== undefined) return JSON.stringify(prop.const);
  return typeof prop.type === 'string' ? prop.type : 'any';
}

/** One field as a line (and its description), then what it holds, indented. */
function fieldLines(f: FieldDoc, indent: string): string[] {
  const change = f.change ? ` [${CHANGE_WORDS[f.change]}]` : '';
  const secret = f.secret ? ` ${SECRET_WORDS[f.secret]}` : '';
  const allowed = f.allowed ? ` one of ${f.allowed.join(', ')}` : '';
  const fallback = f.default !== undefined ? ` default ${JSON.stringify(f.default)}` : '';
  const lines = [`${indent}${f.name}${f.required ? ' (required)' : ''}: ${f.type}${change}${secret}${allowed}${fallback}`];
  if (f.description) lines.push(`${indent}    ${f.description}`);
  for (const inner of f.fields ?? []) lines.push(...fieldLines(inner, `${indent}  `));
  for (const variant of f.variants ?? []) {
    lines.push(`${indent}  when ${variant.name}:`);
    for (const inner of variant.fields) lines.push(...fieldLines(inner, `${indent}    `));
  }
  return lines;
}

/** How a sealed field is marked. */
export const SECRET_WORDS = { whole: '[secret]', 'some keys': '[secret keys sealed]' } as const;

function renderDoc(doc: TokenDoc): string {
  const rows = (list: FieldDoc[]) => list.flatMap((f) => fieldLines(f, '  '));
  const lines = [`${doc.token} (${doc.kind})`, doc.description, ''];
  if (doc.importId) lines.push(`Import: plumb import NAME ${doc.token} ${doc.importId}`, '');
  if (doc.replaceRules?.length) lines.push('Replaced when these change (the API cannot change them in place):', ...doc.replaceRules.map((r) => `  ${r.path}: ${r.reason}`), '');
  if (doc.kind === 'resource') lines.push(`Cost: ${costWords(doc.cost)}`, '');
  return [...lines, 'Inputs:', ...rows(doc.inputs), '', 'Outputs:', ...rows(doc.outputs)].join('\n');
}
