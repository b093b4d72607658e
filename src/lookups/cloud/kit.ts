/**
 * What every cloud lookup shares: the common arguments (ids, nameRegex, outputFile), local
 * filtering, the result id, and writing outputFile after the lookup.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import * as z from 'zod';
import { UserError } from '../../kernel/errors.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import type { LookupContext, LookupFunction } from '../../engine/contracts/lookup.js';

/** What a cloud lookup gets. */
export type CloudLookupContext = LookupContext<CloudClient, CloudSettings>;

/** `ids` argument: an empty list (or none) means everything in the region. */
export const idsArg = z.array(z.string().min(1)).optional().describe('Ids to return. Default: omitted or an empty list returns everything in the region.');

/** An optional regular-expression argument, checked to compile. */
export function regexArg(field: string, description: string) {
  return z.string().refine(isRegex, `${field} must be a valid regular expression`).optional().describe(description);
}

/** `nameRegex` argument. */
export const nameRegexArg = regexArg('nameRegex', 'Regular expression the name must match anywhere (unanchored; use ^…$ to match whole names). Default: no filter.');

/** `outputFile` argument. */
export const outputFileArg = z
  .string()
  .min(1)
  .optional()
  .describe('File to write the result list to as JSON after the lookup (relative to the manifest folder; `~/` expanded; replaced if present). Default: none.');

/** `availabilityZone` argument. */
export const availabilityZoneArg = z.string().min(1).optional().describe('Zone to look in, e.g. `cn-bj2-02`. Default: every zone of the provider region.');

/** `tag` argument (the business group). */
export const tagArg = z.string().min(1).optional().describe('Business group (tag) the objects must belong to. Default: any.');

/** Result fields every list lookup has. */
export const listResultBase = {
  id: z.string().describe('A stable id for this result: the CRC32 of its ids.'),
  ids: z.array(z.string()).describe('Ids of the objects returned.'),
  totalCount: z.number().int().describe('Number of objects returned (after every filter).'),
};

/** An `{ip, internetType}` pair as several lookups return it. */
export const ipSetElement = z.object({
  ip: z.string().describe('IP address.'),
  internetType: z.string().describe('Line or operator of the address.'),
});

/** Defines a cloud lookup; the token follows `cloud:index/<fn>:<fn>`. */
export function cloudLookup<A extends z.ZodType, R extends z.ZodType>(def: {
  name: string;
  description: string;
  args: A;
  result: R;
  invoke(ctx: CloudLookupContext, args: z.output<A>): Promise<z.output<R>>;
}): LookupFunction<z.output<A>, z.output<R>, CloudClient, CloudSettings> {
  return {
    token: `cloud:index/${def.name}:${def.name}`,
    provider: 'cloud',
    description: def.description,
    args: def.args as z.ZodType<z.output<A>>,
    result: def.result as z.ZodType<z.output<R>>,
    invoke: def.invoke,
  };
}

/** Keeps items whose id is in `ids` (when any are given) and whose name matches `nameRegex`. */
export function filterItems<T>(items: T[], filters: { ids?: string[]; idOf?: (item: T) => string; nameRegex?: string; nameOf?: (item: T) => string }): T[] {
  const wanted = filters.ids && filters.ids.length > 0 ? new Set(filters.ids) : undefined;
  const regex = filters.nameRegex !== undefined ? new RegExp(filters.nameRegex) : undefined;
  return items.filter((item) => (!wanted || !filters.idOf || wanted.has(filters.idOf(item))) && (!regex || !filters.nameOf || regex.test(filters.nameOf(item))));
}

/** The result id: CRC32 (IEEE) of `"id1-id2-…-"` as a decimal string, as the upstream provider computes it. */
export function hashIds(ids: string[]): string {
  return String(crc32(`${ids.join('-')}-`));
}

/**
 * Writes the result list to `outputFile` as JSON after the lookup. The file is replaced; secret
 * values are written as `[secret]`. A file that cannot be written is an error, not a silent skip.
 */
export async function writeOutputFile(ctx: CloudLookupContext, outputFile: string | undefined, data: unknown): Promise<void> {
  if (!outputFile) return;
  const home = process.env.HOME || homedir();
  const expanded = outputFile === '~' ? home : outputFile.startsWith('~/') ? join(home, outputFile.slice(2)) : outputFile;
  const path = isAbsolute(expanded) ? expanded : resolve(ctx.workDir, expanded);
  try {
    await rm(path, { force: true });
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${JSON.stringify(data ?? [], null, 2)}\n`, { mode: 0o644 });
  } catch (err) {
    throw new UserError(`cannot write outputFile ${outputFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  ctx.log.debug({ outputFile: path }, 'lookup result written');
}

/** The summary fields of a list result for the ids returned. */
export function summary(ids: string[]): { id: string; ids: string[]; totalCount: number } {
  return { id: hashIds(ids), ids, totalCount: ids.length };
}

function isRegex(text: string): boolean {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
}

let table: Uint32Array | undefined;

function crc32(text: string): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = table[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
