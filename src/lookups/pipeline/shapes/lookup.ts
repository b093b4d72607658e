/**
 * What every pipeline lookup shares: its token, argument and result validation, naming the
 * lookup in its errors, and the helpers for arguments that arrive as strings from the CLI.
 */
import * as z from 'zod';
import { isRemote, RemoteError, UserError } from '../../../kernel/errors.js';
import type { PipelineClient } from '../../../providers/pipeline/client.js';
import type { LookupContext, LookupFunction } from '../../../engine/contracts/lookup.js';

/** A pipeline lookup as its file writes it: schemas, then the call against the client. */
export interface PipelineLookupSpec<A extends z.ZodType, R extends z.ZodType> {
  /** Function name; the token is `pipeline:index/<name>:<name>`. */
  name: string;
  description: string;
  args: A;
  result: R;
  /** Set on the deprecated connector-era lookups: the lookup to use instead. */
  replacedBy?: string;
  call(client: PipelineClient, args: z.output<A>, ctx: LookupContext<PipelineClient>): Promise<z.input<R>>;
}

/**
 * Builds the LookupFunction. Arguments are parsed here as well as by the engine, so a direct
 * `invoke` with CLI strings behaves the same; the result is parsed so an API that answers in an
 * unexpected shape fails loudly instead of leaking undefined into a plan.
 */
export function pipelineLookup<A extends z.ZodType, R extends z.ZodType>(spec: PipelineLookupSpec<A, R>): LookupFunction<z.output<A>, z.output<R>, PipelineClient> {
  return {
    token: `pipeline:index/${spec.name}:${spec.name}`,
    provider: 'pipeline',
    description: spec.replacedBy ? `${spec.description} Deprecated: use ${spec.replacedBy}.` : spec.description,
    args: spec.args as unknown as z.ZodType<z.output<A>>,
    result: spec.result as unknown as z.ZodType<z.output<R>>,
    async invoke(ctx, input) {
      const args = spec.args.safeParse(input ?? {});
      if (!args.success) throw new UserError(`${spec.name}: invalid arguments:\n${z.prettifyError(args.error)}`);
      if (spec.replacedBy) ctx.warn(`${spec.name} is deprecated (the API renamed connectors to connections); use ${spec.replacedBy}`);
      let raw: z.input<R>;
      try {
        raw = await spec.call(ctx.client, args.data, ctx);
      } catch (err) {
        throw named(spec.name, err);
      }
      const result = spec.result.safeParse(raw);
      if (!result.success) {
        throw new RemoteError('unavailable', `${spec.name}: the API answered in an unexpected shape:\n${z.prettifyError(result.error)}`, { provider: 'pipeline' });
      }
      return result.data;
    },
  };
}

/** The error with the lookup's name in front, kind and details kept. */
function named(lookup: string, err: unknown): unknown {
  if (!(err instanceof RemoteError) || err.message.startsWith(`${lookup}: `)) return err;
  return new RemoteError(err.kind, `${lookup}: ${err.message}`, err.details);
}

/**
 * Runs a call for one object, turning the API's not-found into an error that names the lookup,
 * the kind of object and the id asked for: `getConnection: connection "abc" not found`.
 */
export async function orNotFound<T>(lookup: string, entity: string, id: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isRemote(err, 'not-found')) throw new RemoteError('not-found', `${lookup}: ${entity} "${id}" not found`, err.details);
    throw err;
  }
}

/** A path segment for an id: encoded, so an id with `/` or `?` cannot reach another endpoint. */
export function seg(id: string): string {
  return encodeURIComponent(id);
}

/** A required id argument. */
export function idArg(description: string) {
  return z.string().min(1, 'must not be empty').describe(description);
}

/** An optional string filter argument; an empty string means "no filter". */
export function filterArg(description: string) {
  return z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()).describe(description);
}

/** An optional boolean argument that also accepts the CLI's "true"/"false" strings (z.coerce would read "false" as true). */
export function booleanArg(description: string) {
  return z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v === '' ? undefined : v), z.boolean().optional()).describe(description);
}

/** The `id` of list lookups that take no id, as the upstream provider sets it. */
export const LIST_ID = '0';

/** The result `id` of a list lookup. */
export const listId = z.string().describe('Always "0": the list has no id of its own (as in the upstream provider).');
