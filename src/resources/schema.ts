import * as z from 'zod';
import { freeForm } from '../engine/contracts/strict.js';

/** A number restricted to a set of values; the error names every allowed value. */
export function oneOf<T extends number>(values: readonly T[], description: string) {
  return z
    .number()
    .refine((v) => (values as readonly number[]).includes(v), { message: `must be one of ${values.join(', ')}` })
    .meta({ description, allowed: [...values] });
}

/** A string restricted to a set of values; the error names every allowed value. */
export function oneOfText<T extends string>(values: readonly T[], description: string) {
  return z
    .string()
    .refine((v) => (values as readonly string[]).includes(v), { message: `must be one of ${values.map((v) => `"${v}"`).join(', ')}` })
    .meta({ description, allowed: [...values] });
}

/** Free-form string→string tags. */
export const tagsSchema = freeForm(z.record(z.string(), z.string()), 'tags: any key and value the API stores as given (PUT /v2/product/{uid}/tags)');
