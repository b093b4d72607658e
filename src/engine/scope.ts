import type { z } from 'zod';
import type { Manifest, Pos } from '../manifest/ast.js';
import { Secret, Unknown, containsUnknown, holdsSecret, reveal } from '../values.js';
import { EvalError, NOT_NOW, evaluate, type Scope } from './evaluate.js';
import type { EngineDeps } from './types.js';

/** How the evaluation finds a resource's current value (inputs, outputs and id). */
export type ResourceValues = (address: string) => unknown;

/**
 * One evaluation of a manifest's config, variables and lookups. Variables and lookup results
 * are computed once and shared; resources come from the caller, which knows whether they are
 * planned (possibly Unknown) or applied.
 */
export class Evaluation {
  private readonly variables = new Map<string, Promise<unknown>>();
  private readonly invokes = new Map<string, Promise<unknown>>();
  readonly warnings: string[] = [];

  constructor(
    private readonly manifest: Manifest,
    private readonly deps: EngineDeps | undefined,
    private readonly resources: ResourceValues,
    /** Without deps (checks before any call): the functions whose arguments can still be checked. */
    private readonly functions?: ReadonlyMap<string, { args: z.ZodType }>,
  ) {}

  /** The scope handed to `evaluate`. */
  scope(): Scope {
    return {
      dir: this.manifest.dir,
      resolve: (root, pos) => this.resolve(root, pos),
      invoke: (fn, args, pos) => this.invoke(fn, args, pos),
      resolveNow: (root) => (root in this.manifest.resources ? this.resources(root) : NOT_NOW),
    };
  }

  private async resolve(root: string, pos: Pos): Promise<unknown> {
    if (root in this.manifest.resources) return this.resources(root);
    if (root in this.manifest.variables) {
      let value = this.variables.get(root);
      if (!value) {
        value = evaluate(this.manifest.variables[root], this.scope());
        this.variables.set(root, value);
      }
      return value;
    }
    const config = this.manifest.config[root];
    if (config) return evaluate(config.value, this.scope());
    throw new EvalError(pos, `"${root}" is not defined`);
  }

  private async invoke(token: string, args: Record<string, unknown>, pos: Pos): Promise<unknown> {
    // Without a way to call the remote API (validate), and while arguments are unknown, the
    // result is known only at apply; arguments already known are checked all the same.
    if (!this.deps || containsUnknown(args)) {
      const fn = this.functions?.get(token);
      if (fn && !containsUnknown(args)) checkArgs(token, fn.args, reveal(args), pos);
      return new Unknown(token);
    }
    const fn = this.deps.lookup(token);
    if (!fn) throw new EvalError(pos, `unknown function "${token}"`);
    const plain = reveal(args);
    // What a lookup finds from a secret is secret too (a name it was asked for, say).
    const secret = holdsSecret(args);
    const key = `${secret ? 'secret ' : ''}${token} ${JSON.stringify(plain)}`;
    let result = this.invokes.get(key);
    if (!result) {
      result = this.call(fn.token, fn.provider, fn.args, fn.invoke.bind(fn), plain, pos);
      if (secret) result = result.then((found) => new Secret(found));
      this.invokes.set(key, result);
    }
    return result;
  }

  private async call(
    token: string,
    provider: string,
    schema: z.ZodType,
    run: (ctx: any, args: any) => Promise<unknown>,
    args: Record<string, unknown>,
    pos: Pos,
  ): Promise<unknown> {
    const parsed = checkArgs(token, schema, args, pos);
    const deps = this.deps as EngineDeps;
    const connection = await deps.connect(provider);
    try {
      return await run(
        {
          client: connection.client,
          settings: connection.settings,
          log: deps.log.child({ fn: token }),
          warn: (message: string) => this.warnings.push(message),
          workDir: deps.workDir,
        },
        parsed,
      );
    } catch (err) {
      throw new EvalError(pos, (err as Error).message);
    }
  }
}

/** The arguments as the function takes them; an EvalError at the call names each that does not fit. */
function checkArgs(token: string, schema: z.ZodType, args: Record<string, unknown>, pos: Pos): unknown {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`);
  throw new EvalError(pos, `invalid arguments for ${token}`, problems.join('\n'));
}
