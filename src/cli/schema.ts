import * as z from 'zod';
import { UserError } from '../errors.js';
import { closest, resolveToken } from '../manifest/tokens.js';
import { functions, resourceTypes } from '../registry.js';
import type { ResourceType } from '../resources/handler.js';

/** `plumb schema [TOKEN]`: lists every type and function, or describes one from its zod schemas. */
export function schemaCommand(raw: string | undefined, opts: { json?: boolean }): number {
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
  if (!token) {
    const hint = closest(raw, [...resourceTypes.keys(), ...functions.keys()]);
    throw new UserError(`unknown type or function "${raw}"`, hint ? `did you mean ${hint}?` : 'plumb schema lists them all');
  }
  const doc = describeToken(token);
  if (opts.json) process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  else process.stdout.write(`${renderDoc(doc)}\n`);
  return 0;
}

/** How a change of a field is applied, in words. */
export const CHANGE_WORDS = { replace: 'replace', sometimes: 'replace or in place, by value (see description)', update: 'in place', recorded: 'recorded only (sent with the order)' } as const;

/** A field as `plumb schema` and the reference docs describe it. */
export interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  default?: unknown;
  allowed?: unknown[];
  change?: keyof typeof CHANGE_WORDS;
}

/** The documentation of one type or function, generated from its schemas. */
export function describeToken(token: string): { token: string; kind: string; description: string; inputs: FieldDoc[]; outputs: FieldDoc[] } {
  const type = resourceTypes.get(token);
  if (type) return { token, kind: 'resource', description: type.description, inputs: fields(type.inputs, type), outputs: fields(type.outputs) };
  const fn = functions.get(token)!;
  return { token, kind: 'function', description: fn.description, inputs: fields(fn.args), outputs: fields(fn.result) };
}

function fields(schema: z.ZodType, type?: ResourceType): FieldDoc[] {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as { properties?: Record<string, any>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => ({
    name,
    type: typeName(prop),
    required: (json.required ?? []).includes(name),
    description: prop.description,
    default: prop.default,
    allowed: prop.allowed ?? prop.enum,
    change: type && changeOf(type, name),
  }));
}

/** What a change to one input does: static replace rules first, then value-dependent ones. */
function changeOf(type: ResourceType, name: string): FieldDoc['change'] {
  if (type.replaceOn.some((r) => r.path === name || r.path.startsWith(`${name}.`))) return 'replace';
  if (type.replaceSometimes?.includes(name)) return 'sometimes';
  return type.stateOnly?.includes(name) ? 'recorded' : 'update';
}

function typeName(prop: any): string {
  if (prop.type === 'array') return `list<${typeName(prop.items ?? {})}>`;
  if (prop.type === 'object' && prop.additionalProperties && typeof prop.additionalProperties === 'object') return `map<${typeName(prop.additionalProperties)}>`;
  if (prop.anyOf || prop.oneOf) return (prop.anyOf ?? prop.oneOf).map(typeName).join(' | ');
  if (Array.isArray(prop.type)) return prop.type.map((t: string) => typeName({ ...prop, type: t })).join(' | ');
  if (prop.const !== undefined) return JSON.stringify(prop.const);
  return typeof prop.type === 'string' ? prop.type : 'any';
}

function renderDoc(doc: ReturnType<typeof describeToken>): string {
  const row = (f: FieldDoc) =>
    `  ${f.name}${f.required ? ' (required)' : ''}: ${f.type}${f.change ? ` [${CHANGE_WORDS[f.change]}]` : ''}${f.allowed ? ` one of ${f.allowed.join(', ')}` : ''}${f.default !== undefined ? ` default ${JSON.stringify(f.default)}` : ''}${f.description ? `\n      ${f.description}` : ''}`;
  return [`${doc.token} (${doc.kind})`, doc.description, '', 'Inputs:', ...doc.inputs.map(row), '', 'Outputs:', ...doc.outputs.map(row)].join('\n');
}
