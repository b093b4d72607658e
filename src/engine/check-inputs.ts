import * as z from 'zod';
import type { Diagnostic } from '../diagnostics.js';
import type { Expr, ResourceDecl } from '../manifest/ast.js';
import { closestName } from '../manifest/tokens.js';
import { Secret, Unknown, reveal, wrapSecrets } from '../values.js';
import { inputProblems } from './messages.js';

/**
 * Results for properties made only of literals: they evaluate to the same value every time, and
 * when planning checks inputs before its first remote call and again in the plan, the second
 * check of those is free.
 */
const literalResults = new WeakMap<Expr, { schema: z.core.$ZodType; file: string; diagnostics: Diagnostic[] }>();

/**
 * Checks desired inputs against a zod schema and turns each issue into a positioned diagnostic.
 * Issues on values that are not known yet (Unknown) are left for apply time.
 */
export function checkInputs(schema: z.core.$ZodType, value: unknown, properties: Expr, where: { file: string; address: string; what: string; secretPaths?: string[] }): Diagnostic[] {
  const known = literalResults.get(properties);
  if (known && known.schema === schema && known.file === where.file) return [...known.diagnostics];
  const diagnostics = check(schema, value, properties, where);
  if (onlyLiterals(properties)) literalResults.set(properties, { schema, file: where.file, diagnostics: [...diagnostics] });
  return diagnostics;
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
    for (const name of names) {
      const first = name.split(/[.[]/)[0];
      if (!fields.length || fields.includes(first)) continue;
      const hint = closestName(first, fields);
      out.push({
        severity: 'error',
        summary: `${option}: ${type.token} has no ${what} "${first}"`,
        detail: `${hint ? `did you mean "${hint}"? ` : ''}${what}s: ${fields.join(', ')}`,
        address: decl.address,
        pos: { file, ...(decl.options.positions?.[option] ?? decl.pos) },
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

function check(schema: z.core.$ZodType, value: unknown, properties: Expr, where: { file: string; address: string; what: string; secretPaths?: string[] }): Diagnostic[] {
  // zod and the walks below only read the value.
  const plain = reveal(value);
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
  const result = z.safeParse(schema, plain, { reportInput: true });
  if (result.success) return [];
  // A property name is known whatever its neighbours' values: an unknown one is reported now.
  return inputProblems(
    result.error.issues.filter((issue) => issue.code === 'unrecognized_keys' || !touchesUnknown(plain, issue.path as Array<string | number>)),
    { schema, value: plain, properties, where, secretAt },
  );
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
