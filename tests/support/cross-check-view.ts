/**
 * The view a plan gives a resource's cross-check, for tests that call `crossCheck` directly: the
 * stack's resources, a memo shared by the checks, and the lookup functions a command may call,
 * answered by a sandbox.
 */
import type { CrossCheckView, StackResource } from '../../src/engine/contracts/resource-type.js';

/** A lookup function as the view calls it: by its token, with a context and the arguments. */
export interface ViewLookup {
  token: string;
  invoke(ctx: never, args: never): Promise<unknown>;
}

export interface ViewOptions {
  /** The context each lookup is invoked with (a sandbox's). */
  ctx: unknown;
  /** The lookup functions the check may call; calling any other fails the check. */
  lookups: ViewLookup[];
  /** Each token the check looks up, in order. */
  reads?: string[];
  /** Every resource of the stack, the subject included; the subject alone when not given. */
  resources?: StackResource[];
  /** The resource a value names; none when not given. */
  resolve?: (value: unknown) => StackResource | undefined;
}

/** The view a plan gives the check of `subject`, state read, its lookups answered through `ctx`. */
export function crossCheckView(subject: StackResource, options: ViewOptions): CrossCheckView {
  const { ctx, lookups, reads = [], resources = [subject], resolve = () => undefined } = options;
  const built = new Map<string, unknown>();
  return {
    address: subject.address,
    resources,
    memo: <T>(key: string, build: () => T) => (built.has(key) ? built.get(key) : built.set(key, build()).get(key)) as T,
    resolve,
    stateRead: true,
    lookup: (token, args) => {
      reads.push(token);
      const fn = lookups.find((l) => l.token === token);
      if (!fn) throw new Error(`the check looked up ${token}; this view serves only ${lookups.map((l) => l.token).join(', ')}`);
      return fn.invoke(ctx as never, args as never);
    },
  };
}
