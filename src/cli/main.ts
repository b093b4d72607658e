import { Command, InvalidArgumentError, Option } from 'commander';
import { UserError } from '../kernel/errors.js';
import { parseDuration } from '../manifest/duration.js';
import { anySecretKnown, maskSecrets } from '../kernel/secret-mask.js';
import { reportFailure, trackCommand } from './failure.js';
import { everyCommandTakesGlobals, globalFlags, globalsOf, oneLineErrors, optionsOf } from './flags.js';
import type { RunOptions } from './run.js';
import { sandboxCommand } from './sandbox.js';
import { teachingHelp } from './help.js';
import { configCommand } from './config.js';
import { stateCommand } from './state.js';
import { stackCommand } from './stack.js';
import { packageVersion } from './version.js';

// Each command's module is loaded when that command runs: loading every command's code first
// (the engine, all lookups, the sandbox) made even `plumb validate` take a second. The session
// (manifest checks, every resource type's schemas) too, so `plumb --help` does not load it.
const run = () => import('./run.js');
const validate = () => import('./validate.js');
const lookup = () => import('./lookup.js');
const schema = () => import('./schema.js');
const graph = () => import('./graph.js');
const imports = () => import('./import.js');
const drift = () => import('./drift.js');
const output = () => import('./output.js');
const init = () => import('./init.js');
const completion = () => import('./completion.js');
const version = () => import('./version.js');
const show = () => import('./show.js');
const cost = () => import('./cost.js');

for (const stream of [process.stdout, process.stderr]) {
  // A reader that goes away (`plumb plan | head`) ends what plumb prints, not what it does: an
  // apply already confirmed runs to its end and records every outcome, and the exit code still
  // says how it went.
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
  // Whatever is printed passes the secret mask (see secret-mask.ts).
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!anySecretKnown()) return write(chunk, ...rest);
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
    return write(text === undefined ? chunk : maskSecrets(text), ...rest);
  }) as typeof stream.write;
}

const program = globalFlags(new Command('plumb')).description('Declarative plan/apply for interconnect, cloud and pipeline products.').version(packageVersion(), '-v, --version', 'print the version');

const collect = (value: string, all: string[]) => [...all, value];
const wholeNumber = (value: string) => {
  if (!/^[1-9]\d*$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number, 1 or more');
  return Number(value);
};
const amount = (value: string) => {
  if (!/^\d+(\.\d+)?$/.test(value.trim())) throw new InvalidArgumentError('expected an amount of 0 or more, e.g. 500');
  return Number(value);
};
// A budget needs prices: held to it, plan and apply stop before any order (see budget.ts).
const budget = () =>
  new Option('--max-monthly-increase <amount>', "stop before any order when the changes raise the monthly cost by more, in each currency (over the stack's plumb:maxMonthlyIncrease)").argParser(
    amount,
  );
const duration = (value: string) => {
  const ms = parseDuration(value);
  if (ms === undefined) throw new UserError(`--lock-timeout ${value}: expected a duration like 30s or 2m`);
  return ms;
};
const lockTimeout = () => new Option('--lock-timeout <duration>', 'wait this long for the state lock (e.g. 30s)').argParser(duration);
// Unbounded by default, as Pulumi's --parallel: each provider's client keeps to its API's limits on
// calls in flight and per second, and a step waiting for its product to provision holds no call.
const parallelism = () => new Option('--parallelism <n>', "steps run at once; each provider keeps to its API's own limit on calls in flight").default(Infinity, 'no limit').argParser(wholeNumber);

/** A command's options merged with the global flags, as its action gets them. */
type Opts = RunOptions & Record<string, any>;

/** The action of a command: its arguments, then its options merged with the global flags. */
function action(fn: (...args: any[]) => Promise<number>) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    exit(await fn(...args.slice(0, -2), optionsOf(cmd) as Opts));
  };
}

program
  .command('plan [manifest]')
  .description('show what apply would do')
  .option('--config <key=value>', "set a config value for this run, over the stack's settings (repeatable)", collect, [])
  .option('--no-refresh', 'do not read remote objects before planning')
  .option('--no-cost', 'ask no price: show no cost of the changes')
  .addOption(budget())
  .option('--replace <address>', 'replace this resource even without a change (repeatable)', collect, [])
  .option('--target <address>', 'plan only this resource and what it needs (repeatable)', collect, [])
  .option('--exclude <address>', 'leave out this resource and what depends on it (repeatable)', collect, [])
  .option('--compact', 'one line per resource')
  .option('--verbose', 'list every value known only after apply (counted otherwise)')
  .option('--json', 'machine-readable output')
  .option('--out <file>', 'save the plan as JSON for `plumb apply FILE`')
  .option('--destroy', 'plan destroying everything in the stack')
  .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none')
  .option('--format <format>', 'text, json or markdown (a pull-request comment)')
  .option('--html <file>', 'also write the plan as one self-contained page for review')
  .addOption(lockTimeout())
  .action(action(async (manifest: string | undefined, opts: Opts) => (await run()).planCommand(manifest, opts, Boolean(opts.destroy))));

program
  .command('apply [manifestOrPlan]')
  .description('plan (or load a saved plan) and execute it')
  .option('--config <key=value>', "set a config value for this run, over the stack's settings (repeatable)", collect, [])
  .option('--no-refresh', 'do not read remote objects before planning')
  .option('--no-cost', 'ask no price: show no cost of the changes')
  .addOption(budget())
  .option('--replace <address>', 'replace this resource even without a change (repeatable)', collect, [])
  .option('--target <address>', 'apply only this resource and what it needs (repeatable)', collect, [])
  .option('--exclude <address>', 'leave out this resource and what depends on it (repeatable)', collect, [])
  .option('--compact', 'one line per resource')
  .option('--verbose', 'list every value known only after apply (counted otherwise)')
  .option('--json', 'machine-readable output: one JSON event per line')
  .option('-y, --yes', 'do not ask for confirmation')
  .addOption(parallelism())
  .addOption(lockTimeout())
  .action(action(async (target: string | undefined, opts: Opts) => (await run()).applyCommand(target, opts)));

program
  .command('destroy [manifest]')
  .description('delete every resource of the stack, dependents first; protected ones stop it')
  .option('--config <key=value>', "set a config value for this run, over the stack's settings (repeatable)", collect, [])
  .option('--target <address>', 'destroy only this resource and what depends on it (repeatable)', collect, [])
  .option('--exclude <address>', 'keep this resource and what depends on it (repeatable)', collect, [])
  .option('--no-refresh', 'do not read remote objects before destroying')
  .option('--no-cost', 'ask no price: show no cost of the changes')
  .addOption(budget())
  .option('--compact', 'one line per resource')
  .option('--verbose', 'list every value known only after apply (counted otherwise)')
  .option('--json', 'machine-readable output: one JSON event per line')
  .option('-y, --yes', 'do not ask for confirmation')
  .addOption(parallelism())
  .addOption(lockTimeout())
  .action(action(async (manifest: string | undefined, opts: Opts) => (await run()).applyCommand(manifest, { ...opts, replace: [] }, true)));

program
  .command('validate [manifest]')
  .description('check the manifest and every resource input; no remote call')
  .option('--config <key=value>', "set a config value for this run, over the stack's settings (repeatable)", collect, [])
  .option('--json', 'print the result and every problem as JSON')
  .action(action(async (manifest: string | undefined, opts: Opts) => (await validate()).validateCommand(manifest, opts)));

globalFlags(program.command('import [args...]'), 'short')
  .description('adopt existing objects: ADDR TOKEN ID, --file imports.yaml, or --discover TOKEN')
  .option('--file <imports>', 'a YAML list of {address, type, id} imported in one locked run')
  .option('--discover <token>', 'list remote objects of this type not in state, as a manifest fragment')
  .option('--out <file>', 'with --discover: write the fragment to this file')
  .option('--force', 'import (or list) objects whose ownership tags say another project or stack manages them')
  .addOption(lockTimeout())
  .action(async (args: string[], _opts: unknown, cmd: Command) => {
    // Here --file is the list of imports; the manifest is -f (or --file before the command).
    const { file: importFile, ...own } = cmd.opts();
    exit(await (await imports()).importCommand(args, { ...own, ...globalsOf(cmd), importFile } as never));
  });

program
  .command('drift [manifest]')
  .description('compare remote objects with state; change nothing (exit 0 in sync, 2 drift, 1 error)')
  .option('--config <key=value>', "set a config value for this run, over the stack's settings (repeatable)", collect, [])
  .option('--json', 'print the report as JSON')
  .option('--format <format>', 'table, json or markdown', 'table')
  .option('--all', 'check every stack at the state location')
  .option('--html <file>', 'also write the report as one self-contained page with the dependency graph')
  .option('--no-cost', 'ask no price: show no monthly total of the stack')
  .action(action(async (manifest: string | undefined, opts: Opts) => (await drift()).driftCommand(manifest, opts as never)));

program
  .command('cost [manifest]')
  .description("print the stack's bill of materials from state: each resource's monthly price in the API's currency, or why it has none")
  .option('--config <key=value>', "set a config value for this run, over the stack's settings (repeatable)", collect, [])
  .option('--json', 'print the bill as JSON')
  .action(action(async (manifest: string | undefined, opts: Opts) => (await cost()).costCommand(manifest, opts as never)));

program
  .command('refresh [manifest]')
  .description('read every resource and record what the remote API reports')
  .option('--config <key=value>', "set a config value for this run, over the stack's settings (repeatable)", collect, [])
  .option('-y, --yes', 'do not ask for confirmation')
  .addOption(lockTimeout())
  .action(action(async (manifest: string | undefined, opts: Opts) => (await drift()).refreshCommand(manifest, opts as never)));

program
  .command('output [name]')
  .description("print the stack's outputs, or one of them")
  .option('--json', 'print JSON')
  .option('--raw', 'print one output as it is, without quotes (for scripts)')
  .option('--show-secrets', 'print secret outputs in clear')
  .action(action(async (name: string | undefined, opts: Opts) => (await output()).outputCommand(name, opts)));

program
  .command('show <planfile>')
  .description('print a plan saved with plan --out, as plan printed it; no remote call')
  .option('--compact', 'one line per resource')
  .option('--verbose', 'list every value known only after apply (counted otherwise)')
  .option('--json', 'print the saved plan as JSON')
  .action(action(async (file: string, opts: Opts) => (await show()).showCommand(file, opts)));

stateCommand(program);
stackCommand(program);
configCommand(program, () => globalsOf(program));

program
  .command('lookup <token>')
  .description("invoke one lookup function (with -f, the manifest's provider settings)")
  .option('--arg <key=value>', 'an argument (repeatable)', collect, [])
  .option('--json', 'print JSON')
  .action(action(async (token: string, opts: Opts) => (await lookup()).lookupCommand(token, opts as never, opts)));

program
  .command('schema [token]')
  .description('list resource types and functions, or describe one')
  .option('--json', 'print JSON')
  .option('--json-schema', "print the manifest language's JSON Schema (for the YAML language server)")
  .action(action(async (token: string | undefined, opts: Opts) => (await schema()).schemaCommand(token, opts)));

program
  .command('graph [manifest]')
  .description('print the dependency graph')
  .option('--config <key=value>', "set a config value for this run, over the stack's settings (repeatable)", collect, [])
  .option('--format <format>', 'dot, mermaid or json', 'dot')
  .action(action(async (manifest: string | undefined, opts: Opts) => (await graph()).graphCommand(manifest, opts as never)));

program
  .command('init [provider]')
  .description('write a starter manifest for a provider (interconnect, cloud or pipeline)')
  .option('--name <name>', 'the project name (default: the folder name)')
  .option('--force', 'overwrite the manifest if it exists')
  .action(action(async (provider: string | undefined, opts: Opts) => (await init()).initCommand(provider, opts)));

program
  .command('version')
  .description('print the version of plumb and of node')
  .option('--json', 'print JSON')
  .action(action(async (opts: Opts) => (await version()).versionCommand(opts)));

program
  .command('completion <shell>')
  .description('print a completion script for bash, zsh or fish')
  .action(action(async (shell: string) => (await completion()).completionCommand(shell, program)));

sandboxCommand(program);
everyCommandTakesGlobals(program);
oneLineErrors(program);
teachingHelp(program);

function exit(code: number): void {
  process.exitCode = code;
}

trackCommand(program);
program.parseAsync(process.argv).catch((err: unknown) => {
  process.exitCode = reportFailure(err);
});
