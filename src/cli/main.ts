import { Command, InvalidArgumentError, Option } from 'commander';
import { DiagnosticsError, formatDiagnostic } from '../diagnostics.js';
import { RemoteError, UserError } from '../errors.js';
import { parseDuration } from '../manifest/duration.js';
import { anySecretKnown, maskSecrets } from '../secret-mask.js';
import type { RunOptions } from './run.js';
import { stateCommand } from './state.js';
import type { GlobalOptions } from './session.js';
import { sandboxCommand } from './sandbox.js';

// Each command's module is loaded when that command runs: loading every command's code first
// (the engine, all lookups, the sandbox) made even `plumb validate` take a second. The session
// (manifest checks, every resource type's schemas) too, so `plumb --help` does not load it.
const session = () => import('./session.js');
const run = () => import('./run.js');
const lookup = () => import('./lookup.js');
const schema = () => import('./schema.js');
const graph = () => import('./graph.js');
const imports = () => import('./import.js');
const drift = () => import('./drift.js');

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

const program = new Command('plumb')
  .description('Declarative plan/apply for interconnect, cloud and pipeline products.')
  .option('-f, --file <manifest>', 'manifest file (default plumb.yaml)')
  .option('--stack <name>', 'stack name', 'default')
  .option('--state <url>', 'state location: a folder, or env PLUMB_STATE')
  .addOption(new Option('--log-level <level>', 'log level').choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']))
  .option('--log-file <file>', 'write logs to this file instead of stderr')
  .option('--no-color', 'never colour output')
  .enablePositionalOptions()
  .showHelpAfterError();

/** Options every command that reads a manifest accepts after its name too. */
function manifestFlags(cmd: Command): Command {
  return cmd
    .option('-f, --file <manifest>', 'manifest file (default plumb.yaml)')
    .option('--stack <name>', 'stack name')
    .option('--state <url>', 'state location: a folder or postgres:// URL (env PLUMB_STATE)');
}

const collect = (value: string, all: string[]) => [...all, value];
const wholeNumber = (value: string) => {
  if (!/^[1-9]\d*$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number, 1 or more');
  return Number(value);
};
const duration = (value: string) => {
  const ms = parseDuration(value);
  if (ms === undefined) throw new UserError(`--lock-timeout ${value}: expected a duration like 30s or 2m`);
  return ms;
};

function runFlags(cmd: Command): Command {
  return manifestFlags(cmd)
    .option('--no-refresh', 'do not read remote objects before planning')
    .option('--replace <address>', 'replace this resource even without a change (repeatable)', collect, [])
    .option('--target <address>', 'plan only this resource and what it needs (repeatable)', collect, [])
    .option('--exclude <address>', 'leave out this resource and what depends on it (repeatable)', collect, [])
    .option('--compact', 'one line per resource')
    .option('--json', 'machine-readable output')
    .option('--lock-timeout <duration>', 'wait this long for the state lock (e.g. 30s)', duration);
}

runFlags(program.command('plan [manifest]').description('show what apply would do'))
  .option('--out <file>', 'save the plan as JSON for `plumb apply FILE`')
  .option('--destroy', 'plan destroying everything in the stack')
  .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none')
  .action(async (manifest: string | undefined, opts) => exit(await (await run()).planCommand(manifest, merge(opts), Boolean(opts.destroy))));

runFlags(program.command('apply [manifestOrPlan]').description('plan (or load a saved plan) and execute it'))
  .option('-y, --yes', 'do not ask for confirmation')
  .addOption(new Option('--parallelism <n>', 'steps run at once').default(10).argParser(wholeNumber))
  .action(async (target: string | undefined, opts) => exit(await (await run()).applyCommand(target, merge(opts))));

runFlags(program.command('destroy [manifest]').description('delete everything in the stack, dependents first'))
  .option('-y, --yes', 'do not ask for confirmation')
  .addOption(new Option('--parallelism <n>', 'steps run at once').default(10).argParser(wholeNumber))
  .action(async (manifest: string | undefined, opts) => exit(await (await run()).applyCommand(manifest, merge(opts), true)));

manifestFlags(program.command('validate [manifest]'))
  .description('check the manifest and every resource input; no remote call')
  .action(async (manifest: string | undefined, opts) => {
    const globals = merge(opts);
    const { loadManifest, manifestPath } = await session();
    const { manifest: m, warnings } = await loadManifest(manifestPath(manifest, globals));
    for (const w of warnings) process.stderr.write(`Warning: ${w}\n`);
    process.stdout.write(`${m.file}: valid (${Object.keys(m.resources).length} resources, ${Object.keys(m.variables).length} variables)\n`);
  });

program
  .command('import [args...]')
  .description('adopt existing objects: ADDR TOKEN ID, --file imports.yaml, or --discover TOKEN')
  .option('--file <imports>', 'a YAML list of {address, type, id} imported in one locked run')
  .option('--discover <token>', 'list remote objects of this type not in state, as a manifest fragment')
  .option('--out <file>', 'with --discover: write the fragment to this file')
  .option('--force', 'import (or list) objects whose ownership tags say another project or stack manages them')
  .option('--lock-timeout <duration>', 'wait this long for the state lock', duration)
  .option('--stack <name>', 'stack name')
  .option('--state <url>', 'state location')
  .action(async (args: string[], opts) => {
    const globals = program.opts<GlobalOptions>();
    exit(await (await imports()).importCommand(args, { ...globals, ...defined(opts), file: globals.file, importFile: opts.file }));
  });
manifestFlags(program.command('drift [manifest]'))
  .description('compare remote objects with state; change nothing (exit 0 in sync, 2 drift, 1 error)')
  .option('--json', 'print the report as JSON')
  .option('--format <format>', 'table, json or markdown', 'table')
  .option('--all', 'check every stack at the state location')
  .action(async (manifest: string | undefined, opts) => exit(await (await drift()).driftCommand(manifest, merge(opts) as never)));
manifestFlags(program.command('refresh [manifest]'))
  .description('read every resource and record what the remote API reports')
  .option('-y, --yes', 'do not ask for confirmation')
  .option('--lock-timeout <duration>', 'wait this long for the state lock', duration)
  .action(async (manifest: string | undefined, opts) => exit(await (await drift()).refreshCommand(manifest, merge(opts) as never)));
stateCommand(program, () => program.opts<GlobalOptions>());
program
  .command('lookup <token>')
  .description('invoke one lookup function')
  .option('--arg <key=value>', 'an argument (repeatable)', collect, [])
  .option('--json', 'print JSON')
  .action(async (token: string, opts) => exit(await (await lookup()).lookupCommand(token, opts, program.opts<GlobalOptions>())));
program
  .command('schema [token]')
  .description('list resource types and functions, or describe one')
  .option('--json', 'print JSON')
  .action(async (token: string | undefined, opts) => exit((await schema()).schemaCommand(token, opts)));
manifestFlags(program.command('graph [manifest]'))
  .description('print the dependency graph')
  .option('--format <format>', 'dot, mermaid or json', 'dot')
  .action(async (manifest: string | undefined, opts) => exit(await (await graph()).graphCommand(manifest, merge(opts) as never)));
sandboxCommand(program);

function merge(opts: Record<string, unknown>): RunOptions {
  return { ...program.opts<GlobalOptions>(), ...defined(opts) } as RunOptions;
}

/** Options given after the command name override the same options given before it. */
function defined(opts: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
}

function exit(code: number): void {
  process.exitCode = code;
}

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof DiagnosticsError) {
    process.stderr.write(`${err.diagnostics.map(formatDiagnostic).join('\n')}\n`);
    process.stderr.write(`${err.diagnostics.length} error${err.diagnostics.length === 1 ? '' : 's'}; nothing was changed.\n`);
  } else if (err instanceof UserError) {
    process.stderr.write(`Error: ${err.message}\n${err.hint ? `  ${err.hint}\n` : ''}`);
  } else if (err instanceof RemoteError) {
    process.stderr.write(`Error: ${err.message}\n`);
  } else if (fileProblem(err)) {
    process.stderr.write(`Error: ${fileProblem(err)}\n`);
  } else {
    const e = err as Error;
    process.stderr.write(`Error: ${e.message}\n`);
    if (process.env.PLUMB_DEBUG) process.stderr.write(`${e.stack}\n`);
  }
  process.exitCode = 1;
});

/** A file or folder that cannot be used, said of its path (a folder given as a manifest, say); undefined for other errors. */
function fileProblem(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException;
  if (!e || typeof e.path !== 'string') return undefined;
  switch (e.code) {
    case 'ENOENT':
      return `${e.path} does not exist`;
    case 'EISDIR':
      return `${e.path} is a folder, not a file`;
    case 'ENOTDIR':
      return `${e.path}: part of that path is a file, not a folder`;
    case 'EEXIST':
      return `${e.path} is a file, where a folder is needed`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied: ${e.path}`;
    default:
      return undefined;
  }
}
