import * as z from 'zod';
import type { Diagnostic } from '../../kernel/diagnostics.js';
import { entryPos, type Expr, type ResourceDecl } from '../../manifest/ast.js';
import { closestName } from '../../kernel/did-you-mean.js';
import { Secret, Unknown, holdsSecret, reveal, wrapSecrets } from '../../kernel/values.js';
import { strict } from '../contracts/strict.js';
import { inputProblems } from './messages.js';

/**
 * The last check of each resource's properties, by their expression: a command checks every
 * resource's inputs before its first remote call, and the plan checks them again with what it
 * has resolved since; where that changed nothing (properties made only of literals, references
 * still unknown on a first apply) the second check is free.
 */
const lastChecks = new WeakMap<Expr, { schema: z.core.$ZodType; file: string; value: unknown; diagnostics: Diagnostic[] }>();

/**
 * Checks desired inputs against a zod schema, in its strict form (contracts/strict.ts: a key the
 * schema does not name is refused at any depth), and turns each issue into a positioned
 * diagnostic. Issues on values that are not known yet (Unknown) are left for apply time.
 */
export function checkInputs(schema: z.core.$ZodType, value: unknown, properties: Expr, where: { file: string; address: string; what: string; secretPaths?: string[] }): Diagnostic[] {
  const last = lastChecks.get(properties);
  if (last && last.schema === schema && last.file === where.file && (onlyLiterals(properties) || sameToCheck(last.value, value))) return [...last.diagnostics];
  const diagnostics = check(schema, value, properties, where);
  lastChecks.set(properties, { schema, file: where.file, value, diagnostics: [...diagnostics] });
  return diagnostics;
}

/** Whether two values check the same: equal once secrets are opened, values not known yet alike. */
function sameToCheck(a: unknown, b: unknown): boolean {
  if (a instanceof Secret) a = a.value;
  if (b instanceof Secret) b = b.value;
  if (a === b) return true;
  if (a instanceof Unknown || b instanceof Unknown) return a instanceof Unknown && b instanceof Unknown;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameToCheck((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/**
 * Options that name a type's fields: `additionalSecretOutputs` must name outputs, `hideDiffs`
 * inputs (the first step of each path). Each mistake is reported where the option is written.
 */
export function checkOptionFields(decl: ResourceDecl, type: { token: string; inputs: z.core.$ZodType; outputs: z.core.$ZodType }, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { additionalSecretOutputs, hideDiffs } = decl.options;
  // Most resources set neither: their type's schemas are then not even built.
  if (!additionalSecretOutputs?.length && !hideDiffs?.length) return out;
  const check = (option: 'additionalSecretOutputs' | 'hideDiffs', names: string[] | undefined, valid: () => string[], what: string) => {
    if (!names?.length) return;
    const fields = valid();
    for (const [index, name] of names.entries()) {
      const first = name.split(/[.[]/)[0];
      if (!fields.length || fields.includes(first)) continue;
      const hint = closestName(first, fields);
      out.push({
        severity: 'error',
        summary: `${option}: ${type.token} has no ${what} "${first}"`,
        detail: `${hint ? `did you mean "${hint}"? ` : ''}${what}s: ${fields.join(', ')}`,
        address: decl.address,
        pos: { file, ...entryPos(decl, option, index) },
      });
    }
  };
  check('additionalSecretOutputs', additionalSecretOutputs, () => objectKeys(type.outputs), 'output');
  check('hideDiffs', hideDiffs, () => objectKeys(type.inputs), 'input');
  return out;
}

function onlyLiterals(expr: Expr): boolean {
  if (expr.kind === 'literal') return true;
  if (expr.kind === 'object') return expr.entries.every((e) => onlyLiterals(e.value));
  if (expr.kind === 'list') return expr.items.every(onlyLiterals);
  return false;
}

function check(declared: z.core.$ZodType, value: unknown, properties: Expr, where: { file: string; address: string; what: string; secretPaths?: string[] }): Diagnostic[] {
  // The contract's form: an object that declares no catchall refuses keys it does not name.
  const schema = strict(declared);
  // zod and the walks below only read the value.
  const plain = holdsSecret(value) ? reveal(value) : value;
  // A message names a wrong value, unless it is secret (or inside one): then only its kind.
  let guarded: unknown;
  const secretAt = (path: Array<string | number>) => {
    guarded ??= where.secretPaths && value && typeof value === 'object' ? wrapSecrets(value as Record<string, unknown>, where.secretPaths) : value;
    let cur: any = guarded;
    for (const step of path) {
      if (cur instanceof Secret) return true;
      cur = cur?.[step];
    }
    return cur instanceof Secret;
  };
  // A property name is known whatever its neighbours' values: an unknown one is reported now.
  const problems = (parsed: z.ZodSafeParseResult<unknown>) =>
    parsed.success ? [] : parsed.error.issues.filter((issue) => issue.code === 'unrecognized_keys' || !touchesUnknown(plain, issue.path as Array<string | number>));
  // Most failures are only values not known yet: the inputs the messages quote are asked for
  // (a second parse) only when a problem remains.
  if (!problems(z.safeParse(schema, plain)).length) return [];
  return inputProblems(problems(z.safeParse(schema, plain, { reportInput: true })), { schema, value: plain, properties, where, secretAt });
}

function touchesUnknown(value: unknown, path: Array<string | number>): boolean {
  let cur: any = value;
  if (cur instanceof Unknown) return true;
  for (const step of path) {
    cur = cur?.[step];
    if (cur instanceof Unknown) return true;
  }
  return containsUnknownDeep(cur);
}

function containsUnknownDeep(v: unknown): boolean {
  if (v instanceof Unknown) return true;
  if (Array.isArray(v)) return v.some(containsUnknownDeep);
  if (v && typeof v === 'object') return Object.values(v).some(containsUnknownDeep);
  return false;
}

/** The property names of the object schema at `path` (through optionals, refinements and pipes); none when it is not an object. */
export function objectKeys(schema: z.core.$ZodType, path: Array<string | number> = []): string[] {
  let cur: any = schema;
  for (const step of path) {
    cur = unwrap(cur);
    if (typeof step === 'number') cur = cur?.element ?? cur?.def?.element;
    else cur = cur?.shape?.[step];
  }
  cur = unwrap(cur);
  return cur?.shape ? Object.keys(cur.shape) : [];
}

function unwrap(s: any): any {
  let cur = s;
  for (let i = 0; i < 10 && cur; i++) {
    if (cur.shape) return cur;
    const inner = cur.def?.innerType ?? cur.def?.in ?? cur.def?.schema;
    if (!inner) return cur;
    cur = inner;
  }
  return cur;
}
