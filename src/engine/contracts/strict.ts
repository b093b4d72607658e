import * as z from 'zod';
import { Secret, Unknown } from '../../kernel/values.js';

/*
 * Strictness belongs to the contracts, not to each type's file: a resource type's inputs and a
 * lookup function's arguments refuse any key their schema does not name, at every depth (objects
 * in lists, in choices, behind optionals, defaults, refinements and pipes), whether or not the
 * object was written `.strict()`. An unknown key is a mistake the user must hear about: a handler
 * sends only what it knows, so a misspelt field would be shown by the plan and never applied.
 *
 * A map the API itself defines as free-form (tags, a service's config) says so in its schema with
 * `freeForm(map, reason)` and keeps every key; its values are held to the same rule. An object
 * with a catchall that is not declared so is closed like any other; a record that is not is
 * refused by the registry's strictness test (tests/engine/strict.test.ts).
 */

/** Each schema's strict form, made once; a strict form is its own. */
const strictForms = new WeakMap<z.core.$ZodType, z.core.$ZodType>();
/** The forms being made: a schema reached again inside itself (through a getter) gets a lazy one. */
const making = new WeakSet<z.core.$ZodType>();
/** The catchall of an object that takes no key it does not name. */
const NEVER = z.never();

/**
 * The schema as the contracts check it: every object but a map declared `freeForm` refuses
 * unknown keys (zod's `unrecognized_keys`); descriptions and other metadata stay, for the JSON
 * Schema.
 */
export function strict<T extends z.core.$ZodType>(schema: T): T {
  const known = strictForms.get(schema);
  if (known) return known as T;
  if (making.has(schema)) return z.lazy(() => strict(schema)) as unknown as T;
  making.add(schema);
  try {
    const made = rebuilt(schema);
    strictForms.set(schema, made);
    strictForms.set(made, made);
    return made as T;
  } finally {
    making.delete(schema);
  }
}

/**
 * Declares a map whose keys the API defines (a record, or an object with a catchall) as
 * free-form: any key is taken, its values checked as declared. `reason` says what the API does
 * with the keys; it is kept as the schema's metadata, not shown.
 */
export function freeForm<T extends z.ZodType>(map: T, reason: string): T {
  const def = map._zod.def;
  if (def.type !== 'record' && def.type !== 'map' && !(def.type === 'object' && takesAnyKey(map))) throw new Error(`freeForm: a ${def.type} is not a map (${reason})`);
  return map.meta({ freeForm: reason }) as T;
}

/** Why a map takes any key, as `freeForm` declared it; undefined for a schema not declared free-form. */
export function freeFormReason(schema: z.core.$ZodType): string | undefined {
  const reason: unknown = z.globalRegistry.get(schema)?.freeForm;
  return typeof reason === 'string' ? reason : undefined;
}

/** Whether a schema takes keys it does not name: a record, a map, an object with a catchall other than never. */
export function isFreeForm(schema: z.core.$ZodType): boolean {
  const type = schema._zod.def.type;
  return type === 'record' || type === 'map' || (type === 'object' && takesAnyKey(schema));
}

function takesAnyKey(object: z.core.$ZodType): boolean {
  const catchall = (object._zod.def as z.core.$ZodObjectDef).catchall;
  return catchall !== undefined && catchall._zod.def.type !== 'never';
}

/** One schema with the strict form of what it holds; the schema itself when nothing changes. */
function rebuilt(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as any;
  switch (def.type) {
    case 'object': {
      const given = def.shape as Record<string, z.core.$ZodType>;
      const shape = Object.fromEntries(Object.entries(given).map(([key, value]) => [key, strict(value)]));
      // A catchall stays only where the map is declared free-form.
      const open = def.catchall !== undefined && def.catchall._zod.def.type !== 'never' && freeFormReason(schema) !== undefined;
      const catchall = open ? strict(def.catchall as z.core.$ZodType) : def.catchall?._zod.def.type === 'never' ? def.catchall : NEVER;
      const same = catchall === def.catchall && Object.keys(given).every((key) => shape[key] === given[key]);
      return same ? schema : copy(schema, { shape, catchall });
    }
    case 'array':
      return changed(schema, { element: def.element });
    case 'tuple':
      return changed(schema, { items: def.items, ...(def.rest ? { rest: def.rest } : {}) });
    case 'record':
    case 'map':
      return changed(schema, { valueType: def.valueType });
    case 'set':
      return changed(schema, { valueType: def.valueType });
    case 'union':
      return changed(schema, { options: def.options });
    case 'pipe':
      return changed(schema, { in: def.in, out: def.out });
    case 'lazy':
      return copy(schema, { getter: () => strict(def.getter()) });
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return changed(schema, { innerType: def.innerType });
    default:
      // Leaves; and an intersection, whose two objects each hold only part of the keys: each
      // would refuse the other's. The registry's strictness test refuses a type that uses one.
      return schema;
  }
}

/** The schema with the strict form of each schema in `parts` (single ones or lists); itself when none differs. */
function changed(schema: z.core.$ZodType, parts: Record<string, z.core.$ZodType | z.core.$ZodType[]>): z.core.$ZodType {
  let differs = false;
  const patch: Record<string, unknown> = {};
  for (const [key, part] of Object.entries(parts)) {
    const next = Array.isArray(part) ? part.map((p) => strict(p)) : strict(part);
    differs ||= Array.isArray(part) ? (next as z.core.$ZodType[]).some((p, i) => p !== part[i]) : next !== part;
    patch[key] = next;
  }
  return differs ? copy(schema, patch) : schema;
}

/** A copy of the schema with parts of its definition replaced, keeping its checks and its metadata. */
function copy(schema: z.core.$ZodType, patch: Record<string, unknown>): z.core.$ZodType {
  // Property descriptors, not a spread: a spread would resolve getters of the definition (an
  // object's shape). Built here rather than with zod's core helpers, which the CLI bundle would
  // take with every one of zod's locales.
  const def = Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(schema._zod.def), ...Object.getOwnPropertyDescriptors(patch) }) as z.core.$ZodTypeDef;
  const made = new schema._zod.constr(def) as z.core.$ZodType;
  const meta = z.globalRegistry.get(schema);
  if (meta) {
    const { id: _id, ...rest } = meta as Record<string, unknown>;
    z.globalRegistry.add(made, rest as never);
  }
  return made;
}

/**
 * Whether a value holds a key its schema's strict form refuses, at any depth: a walk of keys
 * alone, without parsing, for inputs a command may otherwise take as checked (applied as they
 * are, by a plumb whose checks were not yet strict). Values not known yet, and secrets' insides,
 * are looked through; of a choice, the value must fit no option.
 */
export function hasUnknownKeys(schema: z.core.$ZodType, value: unknown): boolean {
  return refuses(strict(schema), open(value), 0);
}

/** What a secret holds; any other value as it is. */
function open(value: unknown): unknown {
  return value instanceof Secret ? value.value : value;
}

function refuses(schema: z.core.$ZodType, value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object' || value instanceof Unknown || depth > 64) return false;
  const def = schema._zod.def as any;
  switch (def.type) {
    case 'object': {
      if (Array.isArray(value)) return false;
      const shape = def.shape as Record<string, z.core.$ZodType>;
      const closed = def.catchall === undefined || def.catchall._zod.def.type === 'never';
      for (const [key, item] of Object.entries(value)) {
        const field = shape[key] ?? (closed ? undefined : def.catchall);
        if (!field) return true;
        if (refuses(field, open(item), depth + 1)) return true;
      }
      return false;
    }
    case 'array':
      return Array.isArray(value) && value.some((item) => refuses(def.element, open(item), depth + 1));
    case 'record':
    case 'map':
      return !Array.isArray(value) && Object.values(value).some((item) => refuses(def.valueType, open(item), depth + 1));
    case 'union':
      return (def.options as z.core.$ZodType[]).every((option) => refuses(option, value, depth + 1));
    case 'pipe':
      return refuses(def.in._zod.def.type === 'transform' ? def.out : def.in, value, depth + 1);
    case 'lazy':
      return refuses(def.getter(), value, depth + 1);
    default:
      return def.innerType ? refuses(def.innerType, value, depth + 1) : false;
  }
}
