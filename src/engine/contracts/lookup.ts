import type { Logger } from 'pino';
import type { z } from 'zod';

/** What a lookup gets for its call. */
export interface LookupContext<C = any, S = any> {
  client: C;
  settings: S;
  log: Logger;
  /** Adds a warning (deprecations, ambiguous matches) shown to the user. */
  warn(message: string): void;
  /** Folder the manifest lives in (for outputFile and the like). */
  workDir: string;
}

/** A read-only function invoked with `fn::invoke` or `plumb lookup`. */
export interface LookupFunction<A = any, R = any, C = any, S = any> {
  token: string;
  provider: string;
  description: string;
  args: z.ZodType<A>;
  result: z.ZodType<R>;
  invoke(ctx: LookupContext<C, S>, args: A): Promise<R>;
}
