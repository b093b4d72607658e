import * as z from 'zod';
import type { Diagnostic } from '../../kernel/diagnostics.js';
import { keyPosAt, posAt, type Expr } from '../../manifest/ast.js';
import { closestName } from '../../kernel/did-you-mean.js';

/*
 * zod's issues in the words of the thing being checked: what is wrong with the value at a path
 * and what would be valid, never the library's own text ("Invalid discriminator value",
 * "received NaN"). Only a refinement's message, which the schema's author wrote, is kept.
 */

/** One zod issue, as zod reports it. */
export type Issue = z.core.$ZodIssue;

/** What a problem is said of: the value at the issue's path as it was given, and whether it is secret. */
export interface IssueSubject {
  /** The dotted path, `a.b[0].c` (empty for the whole value). */
  name: string;
  /** The value given at the issue's path, before any coercion; undefined when absent. */
  given: unknown;
  /** Never show the value, only its kind. */
  secret?: boolean;
  /** The fields of the object the issue is in (for an unknown key), by the variant the value chose. */
  fields?: string[];
  /** Other names of those fields (see akaAt). */
  aka?: Record<string, string>;
  /** What the names are called: property (default), setting, argument. */
  noun?: string;
  /** Unknown keys that are slips of a required field left unset, to that field (see pairSlips). */
  slips?: Record<string, string>;
}

/** A problem as a summary and an optional detail (what would be valid, a suggestion). */
export interface Described {
  summary: string;
  detail?: string;
}

/** `a.b[0].c` for a path. */
export function pathName(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** One issue in words; unknown keys give one problem each. */
export function describeIssue(issue: Issue, subject: IssueSubject): Described[] {
  const noun = subject.noun ?? 'property';
  const { name, given } = subject;
  const shown = shownValue(given, subject.secret);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const valid = subject.fields ?? [];
        const required = subject.slips?.[key];
        const hint = required ?? subject.aka?.[nameForm(key)] ?? closestName(key, valid);
        return {
          summary: `unknown ${noun} "${name ? `${name}.` : ''}${key}"`,
          detail: `${valid.length ? `valid ${noun === 'property' ? 'properties' : `${noun}s`}: ${valid.join(', ')}` : `no ${noun} is expected here`}${hint ? `; did you mean "${hint}"${required ? ', which is required' : ''}?` : ''}`,
        };
      });
    case 'invalid_type':
      if (given === undefined) return [{ summary: `missing required ${noun} "${name}"`, detail: `expected ${article(issue.expected)}` }];
      return [{ summary: `${name || 'the value'} must be ${article(issue.expected)}, not ${kindOf(given, subject.secret)}` }];
    case 'invalid_union':
      return [unionProblem(issue, subject, shown)];
    case 'invalid_value': {
      const values = issue.values.map((v) => String(v));
      if (given === undefined && name) return [{ summary: `missing required ${noun} "${name}"`, detail: `one of ${values.join(', ')}` }];
      const hint = typeof given === 'string' && !subject.secret ? closestName(given, values) : undefined;
      return [{ summary: `${name}${shown} is not valid: must be ${values.length === 1 ? values[0] : `one of ${values.join(', ')}`}`, detail: hint ? `did you mean "${hint}"?` : undefined }];
    }
    default:
      return [{ summary: `${name || 'the value'}${shown} is not valid: ${rule(issue)}` }];
  }
}

/** A wrong or missing discriminator names the variants; any other union names the kinds it takes. */
function unionProblem(issue: Extract<Issue, { code: 'invalid_union' }>, subject: IssueSubject, shown: string): Described {
  const { name, given } = subject;
  const discriminated = issue as typeof issue & { discriminator?: string; options?: unknown[] };
  if (discriminated.discriminator !== undefined) {
    const options = (discriminated.options ?? []).map(String);
    const where = name.endsWith(`.${discriminated.discriminator}`) || name === discriminated.discriminator ? name : pathName([...(name ? [name] : []), discriminated.discriminator]);
    const chosen = given && typeof given === 'object' ? (given as Record<string, unknown>)[discriminated.discriminator] : given;
    if (chosen === undefined) return { summary: `missing required ${subject.noun ?? 'property'} "${where}"`, detail: `it chooses the kind: one of ${options.join(', ')}` };
    const hint = typeof chosen === 'string' ? closestName(chosen, options) : undefined;
    return { summary: `${where} ${JSON.stringify(chosen)} is not valid: must be one of ${options.join(', ')}`, detail: hint ? `did you mean "${hint}"?` : undefined };
  }
  const kinds = [...new Set(issue.errors.flatMap((errors) => errors.filter((e) => e.code === 'invalid_type').map((e) => (e as { expected: string }).expected)))];
  if (kinds.length && kinds.length === issue.errors.length) return { summary: `${name || 'the value'} must be ${kinds.map(article).join(' or ')}, not ${kindOf(given, subject.secret)}` };
  // Each alternative failed a rule of its own: the first one's says the most.
  const first = issue.errors.find((errors) => errors.length)?.[0];
  return { summary: `${name || 'the value'}${shown} is not valid: ${first ? rule(first) : 'it fits none of the accepted forms'}` };
}

/** What a rule asks for, in words. */
function rule(issue: Issue): string {
  switch (issue.code) {
    case 'too_small':
      return bound(issue.origin, issue.inclusive ? 'at least' : 'more than', issue.minimum, 'must not be empty');
    case 'too_big':
      return bound(issue.origin, issue.inclusive ? 'at most' : 'less than', issue.maximum);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue ? `must match ${String(issue.pattern)}` : `must be a valid ${issue.format}`;
    case 'invalid_type':
      return `must be ${article(issue.expected)}`;
    case 'custom':
      return issue.message;
    default:
      return issue.message.replace(/^Invalid input:?\s*/i, '') || 'not accepted';
  }
}

/** `at least 1`, `at most 255 characters`, `at least 2 items`; an empty text or list has its own words. */
function bound(origin: string, relation: string, limit: number | bigint, emptyText?: string): string {
  if (emptyText && relation === 'at least' && Number(limit) === 1 && (origin === 'string' || origin === 'array')) return emptyText;
  const unit = origin === 'string' ? ' characters' : origin === 'array' || origin === 'set' ? ' items' : '';
  return `must be ${relation} ${limit}${unit}`;
}

/** ` "text"`, ` 12`: the value after its name, or nothing for an object, a list or a secret. */
function shownValue(value: unknown, secret?: boolean): string {
  if (secret || value === undefined || (typeof value === 'object' && value !== null)) return '';
  return ` ${literal(value)}`;
}

/** A value as the manifest would write it: NaN and the infinities as YAML spells them, never as `null`. */
function literal(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
  return JSON.stringify(value);
}

/** `a list`, `a mapping`, `a string ("x")`, `.nan`. */
function kindOf(value: unknown, secret?: boolean): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number' && !Number.isFinite(value)) return literal(value);
  return secret ? `${article(typeof value)} (secret)` : `${article(typeof value)} (${literal(value)})`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The fields of the object at `path`, or of every variant of a choice there that the value does not make. */
function fieldsOrVariants(schema: z.core.$ZodType, path: ReadonlyArray<PropertyKey>, value: unknown): string[] {
  const fields = fieldsAt(schema, path, value);
  return fields.length ? fields : variantFields(schema, path);
}

/** The value at a path. */
export function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: any = value;
  for (const step of path) cur = cur?.[step as string];
  return cur;
}

/**
 * The field names of the object schema at `path`, looking through optionals, defaults, pipes and
 * lazies, and into the variant of a discriminated union that `value` chooses; none when there is
 * no object there.
 */
export function fieldsAt(schema: z.core.$ZodType, path: ReadonlyArray<PropertyKey>, value?: unknown): string[] {
  const shape = objectAt(schema, path, value)?.shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * The other names of the fields of the object schema at `path`: what the API calls a field where
 * the manifest's name differs, as the object declares them (`.meta({ aka: { SrcIP: 'cidrBlock' } })`),
 * each in the form `nameForm` gives, to the field's name.
 */
export function akaAt(schema: z.core.$ZodType, path: ReadonlyArray<PropertyKey>, value?: unknown): Record<string, string> {
  const object = objectAt(schema, path, value);
  const aka: unknown = object && z.globalRegistry.get(object)?.aka;
  if (!aka || typeof aka !== 'object') return {};
  return Object.fromEntries(Object.entries(aka).map(([name, field]) => [nameForm(name), String(field)]));
}

/** A name as another name is compared with it: in lower case, without `_` and `-`. */
export function nameForm(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** The object schema at `path` (see fieldsAt); undefined when there is none. */
function objectAt(schema: z.core.$ZodType, path: ReadonlyArray<PropertyKey>, value?: unknown): any {
  let cur: any = objectLike(schema, value);
  let at: any = value;
  for (const step of path) {
    at = at?.[step as string];
    if (typeof step === 'number') cur = cur?.element ?? cur?.def?.element;
    else cur = cur?.shape?.[step] ?? cur?.def?.valueType;
    cur = objectLike(cur, at);
  }
  return cur;
}

/** A schema with its wrappers taken off, and a discriminated union resolved to the variant `value` names. */
function objectLike(schema: any, value: unknown): any {
  let cur = schema;
  // An object, a list and a map are what a path steps into (fieldsAt).
  for (let i = 0; i < 20 && cur && !cur.shape && !cur.element && cur.def?.type !== 'record'; i++) {
    const def = cur.def ?? {};
    if (def.type === 'union' && def.discriminator && value && typeof value === 'object') {
      const chosen = (value as Record<string, unknown>)[def.discriminator];
      cur = def.options.find((o: any) => literalValues(objectLike(o, undefined)?.shape?.[def.discriminator]).includes(chosen));
    } else if (def.type === 'union') cur = likeliest(def.options, value);
    else if (def.type === 'lazy') cur = def.getter();
    else if (def.type === 'pipe') cur = def.in?.def?.type === 'transform' ? def.out : def.in;
    else cur = def.innerType ?? def.schema;
  }
  return cur;
}

/** Of a choice without a discriminator: for a list, the first list; else the object that names most of the value's keys (the first of equals). */
function likeliest(options: any[], value: unknown): any {
  if (Array.isArray(value)) return options.find((option) => objectLike(option, undefined)?.element) ?? options[0];
  if (!value || typeof value !== 'object') return options[0];
  const keys = Object.keys(value);
  let best = options[0];
  let most = -1;
  for (const option of options) {
    const shape = objectLike(option, value)?.shape;
    const named = shape ? keys.filter((key) => Object.hasOwn(shape, key)).length : -1;
    if (named > most) [best, most] = [option, named];
  }
  return best;
}

function literalValues(schema: any): unknown[] {
  return schema?.def?.values ?? [];
}

/** Everything a check of manifest inputs knows besides the issues. */
export interface InputsContext {
  schema: z.core.$ZodType;
  /** The inputs as evaluated (secrets revealed). */
  value: unknown;
  properties: Expr;
  where: { file: string; address: string; what: string };
  /** Whether the value at a path is secret or inside one. */
  secretAt(path: Array<string | number>): boolean;
}

/**
 * A required field written with a slip (`portSped: 10000`) is one mistake, though zod finds two:
 * a key it does not know and a field it misses. The missing field an unknown key beside it is the
 * closest slip of is left out, and the unknown key's problem names it as the required field.
 */
export function pairSlips(issues: readonly Issue[], given: unknown, schema: z.core.$ZodType): { issues: Issue[]; slips: Map<Issue, Record<string, string>> } {
  // The required fields missing, by the path of the object that misses them.
  const missing = new Map<string, Array<{ issue: Issue; field: string }>>();
  for (const issue of issues) {
    const field = missingField(issue, given);
    if (!field) continue;
    const at = pathName(field.object);
    missing.set(at, [...(missing.get(at) ?? []), { issue, field: field.name }]);
  }
  const slips = new Map<Issue, Record<string, string>>();
  const paired = new Set<Issue>();
  const all = [...issues, ...unknownBesideChoice(issues, given, schema)];
  for (const issue of all) {
    const unset = issue.code === 'unrecognized_keys' ? missing.get(pathName(issue.path)) : undefined;
    if (!unset) continue;
    for (const key of (issue as Extract<Issue, { code: 'unrecognized_keys' }>).keys) {
      const field = closestName(
        key,
        unset.filter((m) => !paired.has(m.issue)).map((m) => m.field),
      );
      const match = unset.find((m) => m.field === field && !paired.has(m.issue));
      if (!match) continue;
      paired.add(match.issue);
      slips.set(issue, { ...slips.get(issue), [key]: match.field });
    }
  }
  return { issues: all.filter((issue) => !paired.has(issue)), slips };
}

/**
 * The keys no variant names, of an object whose variant is chosen by a field it leaves out: zod
 * stops at the missing field and does not look at the keys, a slip of that field among them.
 */
function unknownBesideChoice(issues: readonly Issue[], given: unknown, schema: z.core.$ZodType): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    const discriminator = (issue as { discriminator?: string }).discriminator;
    // zod's path ends with the discriminator.
    const path = issue.path[issue.path.length - 1] === discriminator ? issue.path.slice(0, -1) : issue.path;
    const object = valueAt(given, path);
    if (issue.code !== 'invalid_union' || discriminator === undefined || !object || typeof object !== 'object' || discriminator in object) continue;
    const named = new Set(variantFields(schema, path));
    const keys = Object.keys(object).filter((key) => !named.has(key));
    if (keys.length) out.push({ code: 'unrecognized_keys', keys, path, message: '', input: object } as Issue);
  }
  return out;
}

/** The fields of every variant of the choice at `path` (see objectAt). */
function variantFields(schema: z.core.$ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let choice: any = objectAt(schema, path.slice(0, -1), undefined);
  const last = path[path.length - 1];
  if (path.length) choice = typeof last === 'number' ? (choice?.element ?? choice?.def?.element) : choice?.shape?.[last];
  for (let i = 0; i < 20 && choice && choice.def?.type !== 'union'; i++) choice = choice.def?.innerType ?? choice.def?.in ?? choice.def?.schema;
  const options: any[] = choice?.def?.options ?? [];
  return [...new Set(options.flatMap((option) => Object.keys(objectLike(option, undefined)?.shape ?? {})))];
}

/** The required field an issue says is missing, with the path of its object; undefined for any other issue. */
function missingField(issue: Issue, given: unknown): { object: PropertyKey[]; name: string } | undefined {
  const path = issue.path;
  const unset = issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union';
  if (unset && path.length && typeof path[path.length - 1] === 'string' && valueAt(given, path) === undefined) {
    return { object: path.slice(0, -1), name: String(path[path.length - 1]) };
  }
  const discriminator = (issue as { discriminator?: string }).discriminator;
  const object = valueAt(given, path);
  if (issue.code === 'invalid_union' && discriminator !== undefined && object && typeof object === 'object' && (object as Record<string, unknown>)[discriminator] === undefined) {
    return { object: path, name: discriminator };
  }
  return undefined;
}

/** zod's issues with a resource's inputs as diagnostics at their positions in the manifest. */
export function inputProblems(all: readonly Issue[], ctx: InputsContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { issues, slips } = pairSlips(all, ctx.value, ctx.schema);
  for (const issue of issues) {
    const path = issue.path as Array<string | number>;
    const subject: IssueSubject = { name: pathName(path), given: valueAt(ctx.value, path), secret: ctx.secretAt(path) };
    if (issue.code === 'unrecognized_keys') Object.assign(subject, { fields: fieldsOrVariants(ctx.schema, path, ctx.value), aka: akaAt(ctx.schema, path, ctx.value), slips: slips.get(issue) });
    const problems = describeIssue(issue, subject);
    problems.forEach((p, i) => {
      const missing = issue.code === 'invalid_type' && subject.given === undefined;
      const pos = issue.code === 'unrecognized_keys' ? keyPosAt(ctx.properties, path, issue.keys[i]) : posAt(ctx.properties, missing ? path.slice(0, -1) : path);
      const summary = issue.code === 'unrecognized_keys' || missing ? `${p.summary} for ${ctx.where.what}` : p.summary;
      out.push({ severity: 'error', summary, detail: p.detail, address: ctx.where.address, pos: { file: ctx.where.file, ...pos } });
    });
  }
  return out;
}

/**
 * Problems with a set of named values (provider settings, a function's arguments), each named as
 * `label` writes its path. `given` is what was written, before any coercion.
 */
export function valueProblems(schema: z.core.$ZodType, all: readonly Issue[], given: unknown, noun: string, label: (name: string) => string = (name) => name): Array<{ name: string } & Described> {
  const { issues, slips } = pairSlips(all, given, schema);
  return issues.flatMap((issue) => {
    const path = issue.path as Array<string | number>;
    const subject: IssueSubject = { name: path.length ? label(pathName(path)) : '', given: valueAt(given, path), noun };
    if (issue.code === 'unrecognized_keys') Object.assign(subject, { fields: fieldsOrVariants(schema, path, given), aka: akaAt(schema, path, given), slips: slips.get(issue) });
    return describeIssue(issue, subject).map((d) => ({ name: subject.name, ...d }));
  });
}
