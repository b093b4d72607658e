import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { BUILTIN_ROOTS, type Expr, keyPosAt, type Manifest, type Pos, posAt, refsOf } from '../../manifest/ast.js';
import { Secret, Unknown, containsUnknown, holdsSecret, reveal } from '../../kernel/values.js';
import { strict } from '../contracts/strict.js';
import { urnOf } from '../../manifest/urn.js';
import { EvalError, evaluate, type Scope } from './evaluate.js';
import { valueProblems } from '../checking/messages.js';
import type { EngineDeps } from '../types.js';

/** How the evaluation finds a resource's current value (inputs, outputs and id). */
export type ResourceValues = (address: string) => unknown;

/**
 * One evaluation of a manifest's config, variables and lookups. Variables and lookup results
 * are computed once and shared; resources come from the caller, which knows whether they are
 * planned (possibly Unknown) or applied.
 */
export class Evaluation {
  /** Variables and config keys, each evaluated once. */
  private readonly values = new Map<string, Promise<unknown>>();
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
      urn: (root) => urnOf(this.manifest, root),
      integer: (root) => this.expressionOf(root) === this.manifest.config[root]?.value && this.manifest.config[root]?.decl?.type === 'integer',
      invoke: (fn, args, pos, waiting, provider, argsAt) => this.invoke(fn, args, pos, waiting, provider, argsAt),
      stackOutputs: (stack, pos) => this.stackOutputs(stack, pos),
    };
  }

  private readonly stacks = new Map<string, Promise<Record<string, unknown>>>();

  /** Another stack's outputs, read once per evaluation; Unknown without deps (the checks before any call). */
  private async stackOutputs(stack: string, pos: Pos): Promise<Record<string, unknown> | Unknown> {
    const read = this.deps?.stackOutputs;
    if (!read) return new Unknown(`stack reference ${stack}`);
    let outputs = this.stacks.get(stack);
    if (!outputs) this.stacks.set(stack, (outputs = read(stack)));
    try {
      return await outputs;
    } catch (err) {
      throw new EvalError(pos, (err as Error).message, (err as { hint?: string }).hint);
    }
  }

  private async resolve(root: string, pos: Pos): Promise<unknown> {
    if (BUILTIN_ROOTS.has(root)) return builtinVariable(this.manifest);
    if (Object.hasOwn(this.manifest.resources, root)) return this.resources(root);
    // A provider resource as a value (`${east}`): what Pulumi knows of it before anything runs.
    if (Object.hasOwn(this.manifest.providers, root)) return { urn: urnOf(this.manifest, root) };
    if (this.expressionOf(root)) return this.valueOf(root);
    throw new EvalError(pos, `"${root}" is not defined`);
  }

  /** The expression of a variable or config key (a resource shadows both, a variable a config key). */
  private expressionOf(name: string): Expr | undefined {
    const { resources, variables, config } = this.manifest;
    if (Object.hasOwn(resources, name)) return undefined;
    if (Object.hasOwn(variables, name)) return variables[name];
    return Object.hasOwn(config, name) ? config[name].value : undefined;
  }

  /**
   * The value of a variable or config key. What it reads (and what that reads...) is started
   * first, dependencies before dependents: each then waits on values already started, where
   * evaluating a chain of variables (`v2: ${v1}`, `v1: ${v0}`...) would otherwise nest a call
   * per link and overflow the stack.
   */
  private valueOf(name: string): Promise<unknown> {
    const started = this.values.get(name);
    if (started) return started;
    for (const next of this.unstarted(name)) {
      let settle!: (value: Promise<unknown>) => void;
      const value = new Promise<unknown>((done) => (settle = done));
      // In the map before it runs: what it reads can never start it a second time.
      this.values.set(next, value);
      settle(evaluate(this.expressionOf(next) as Expr, this.scope()));
      // A failure is reported by whatever reads the value; one started early and never read must not crash the run.
      value.catch(() => undefined);
    }
    return this.values.get(name) as Promise<unknown>;
  }

  /** `name` and the variables and config keys it reads, directly or not, that are not started yet: dependencies first. */
  private unstarted(name: string): string[] {
    const order: string[] = [];
    const seen = new Set([name]);
    const stack = [{ name, reads: this.reads(name), next: 0 }];
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.next === top.reads.length) {
        stack.pop();
        order.push(top.name);
        continue;
      }
      const dep = top.reads[top.next++];
      if (seen.has(dep) || this.values.has(dep)) continue;
      seen.add(dep);
      stack.push({ name: dep, reads: this.reads(dep), next: 0 });
    }
    return order;
  }

  /** The variables and config keys an expression of `name` refers to. */
  private reads(name: string): string[] {
    return refsOf(this.expressionOf(name) as Expr)
      .map((ref) => ref.root)
      .filter((root) => this.expressionOf(root) !== undefined);
  }

  private async invoke(token: string, args: Record<string, unknown>, pos: Pos, waiting = false, instance?: string, argsAt?: Expr): Promise<unknown> {
    // Without a way to call the remote API (validate), while arguments are unknown, and while a
    // resource the call waits for is, the result is known only at apply; arguments already known
    // are checked all the same.
    if (!this.deps || waiting || containsUnknown(args)) {
      const fn = this.functions?.get(token);
      if (fn && !containsUnknown(args)) checkArgs(token, fn.args, reveal(args), pos, argsAt);
      return new Unknown(token);
    }
    const fn = this.deps.lookup(token);
    if (!fn) throw new EvalError(pos, `unknown function "${token}"`);
    const plain = reveal(args);
    // What a lookup finds from a secret is secret too (a name it was asked for, say).
    const secret = holdsSecret(args);
    const key = `${secret ? 'secret ' : ''}${instance ?? ''} ${token} ${JSON.stringify(plain)}`;
    let result = this.invokes.get(key);
    if (!result) {
      result = this.call(fn.token, fn.provider, fn.args, fn.invoke.bind(fn), plain, pos, instance, argsAt);
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
    instance?: string,
    argsAt?: Expr,
  ): Promise<unknown> {
    const parsed = checkArgs(token, schema, args, pos, argsAt);
    const deps = this.deps as EngineDeps;
    const connection = await deps.connect(provider, instance);
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

/**
 * `${pulumi.*}` (and `${plumb.*}`): the stack, the project, and the manifest's folder as `cwd` and
 * `rootDirectory` (Pulumi runs a program in its project's folder, so plans do not depend on where
 * plumb is run from). `organization` is Pulumi's name for a stack kept outside Pulumi Cloud.
 */
function builtinVariable(manifest: Manifest): Record<string, string> {
  const root = manifest.projectFile ? dirname(resolve(manifest.projectFile)) : manifest.dir;
  return { stack: manifest.stack, project: manifest.project, cwd: manifest.dir, rootDirectory: root, organization: 'organization' };
}

/**
 * The arguments as the function takes them; an EvalError names each that does not fit, at the
 * first one's key or value where the arguments are written out (`argsAt`), else at the call.
 */
function checkArgs(token: string, declared: z.ZodType, args: Record<string, unknown>, pos: Pos, argsAt?: Expr): unknown {
  // The contract's form: an argument the function does not name is refused, at any depth.
  const schema = strict(declared);
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const problems = valueProblems(schema, parsed.error.issues, args, 'argument').map((p) => `${p.summary}${p.detail ? ` (${p.detail})` : ''}`);
  // A misspelt argument is at once unknown and missing: its key is where to look.
  const first = parsed.error.issues.find((issue) => issue.code === 'unrecognized_keys') ?? parsed.error.issues[0];
  const path = first.path as PropertyKey[];
  const at = !argsAt ? pos : first.code === 'unrecognized_keys' ? keyPosAt(argsAt, path, first.keys[0]) : posAt(argsAt, path);
  throw new EvalError(at, `invalid arguments for ${token}`, problems.join('\n'));
}
