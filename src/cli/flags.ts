import { Command, Option } from 'commander';
import type { GlobalOptions } from './session.js';

/*
 * The flags every command takes, before or after its name (`plumb --no-color plan`, `plumb plan
 * --no-color`, `plumb state list -f x.yaml`), and how the values given at each level are merged:
 * a flag given on the command line wins over one from the environment, the one nearest the
 * command's name winning between two given, and the default comes last.
 */

/** Log levels `--log-level` takes. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** What each global flag is called in GlobalOptions, with the flag that sets it. */
const GLOBALS = ['file', 'stack', 'state', 'logLevel', 'logFormat', 'logFile', 'color'] as const;

/**
 * Adds the global flags to a command. `manifest: 'short'` gives the manifest only as `-f`, for
 * a command whose `--file` means something else (`plumb import --file imports.yaml`).
 */
export function globalFlags(cmd: Command, manifest: 'both' | 'short' = 'both'): Command {
  if (manifest === 'short') manifestIsShort.add(cmd);
  const flags = [
    manifest === 'both'
      ? new Option('-f, --file <manifest>', "manifest file (default plumb.yaml, or the folder's Pulumi.yaml project)")
      : new Option('-f <manifest>', "manifest file (default plumb.yaml, or the folder's Pulumi.yaml project)"),
    new Option('--stack <name>', 'stack name (default "default", env PLUMB_STACK)'),
    new Option('--state <url>', 'state location: a folder or postgres:// URL (env PLUMB_STATE)'),
    new Option('--log-level <level>', 'log level (env PLUMB_LOG_LEVEL; silent by default)').choices(LOG_LEVELS),
    new Option('--log-format <format>', 'log lines as json, or text for a terminal (env PLUMB_LOG_FORMAT; default text on a terminal)').choices(['json', 'text']),
    new Option('--log-file <file>', 'write logs to this file instead of stderr'),
    new Option('--no-color', 'never colour output (NO_COLOR is honoured too)'),
  ];
  // A command may declare some of them itself (plumb state's subcommands); each is added once.
  for (const flag of flags) if (!cmd.options.some((o) => o.attributeName() === flag.attributeName())) cmd.addOption(flag);
  return cmd;
}

/** Commands whose --file is not the manifest (which they take as -f only). */
const manifestIsShort = new WeakSet<Command>();

/** Whether `option` of `cmd` is one of the global flags (import's `--file`, a list of imports, is not). */
export function isGlobalFlag(cmd: Command, option: Option): boolean {
  const name = option.attributeName();
  if (manifestIsShort.has(cmd)) return name === 'f' || (name !== 'file' && (GLOBALS as readonly string[]).includes(name));
  return (GLOBALS as readonly string[]).includes(name);
}

/** The commands from the program down to `cmd`. */
function chain(cmd: Command): Command[] {
  const out: Command[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) out.unshift(c);
  return out;
}

/** The global flags as given anywhere from the program to `cmd`, merged (see above). */
export function globalsOf(cmd: Command): GlobalOptions {
  const levels = chain(cmd);
  const given = (key: string): unknown => {
    for (let i = levels.length - 1; i >= 0; i--) {
      const c = levels[i];
      // `-f` alone (import) is stored under its letter, and that command's --file is something else.
      for (const name of key === 'file' ? (manifestIsShort.has(c) ? ['f'] : ['file']) : [key]) {
        if (c.getOptionValueSource(name) === 'cli') return c.getOptionValue(name);
      }
    }
    return undefined;
  };
  const out: Record<string, unknown> = {};
  for (const key of GLOBALS) {
    const value = given(key);
    if (value !== undefined) out[key] = value;
  }
  out.stack ??= process.env.PLUMB_STACK || 'default';
  out.color ??= true;
  return out as unknown as GlobalOptions;
}

/** A command's own options (its non-global ones as given or defaulted) with the merged global flags. */
export function optionsOf<T = Record<string, unknown>>(cmd: Command): T & GlobalOptions {
  const own = Object.fromEntries(Object.entries(cmd.opts()).filter(([key]) => !(GLOBALS as readonly string[]).includes(key) && key !== 'f'));
  return { ...own, ...globalsOf(cmd) } as T & GlobalOptions;
}

/** Adds the global flags to every command below `program` that has none yet, and lets each command's parent leave them to it. */
export function everyCommandTakesGlobals(program: Command): void {
  const walk = (cmd: Command) => {
    if (cmd.commands.length) cmd.enablePositionalOptions();
    for (const sub of cmd.commands) {
      if (sub.name() !== 'help') globalFlags(sub, manifestIsShort.has(sub) ? 'short' : 'both');
      walk(sub);
    }
  };
  walk(program);
}

/**
 * Commander's errors as one line: `error: unknown command 'plna'` and its `(Did you mean plan?)`
 * become `error: unknown command 'plna'; did you mean plan?`, followed by where help is.
 */
export function oneLineErrors(program: Command): void {
  const apply = (cmd: Command) => {
    const help = chain(cmd)
      .map((c) => c.name())
      .join(' ');
    cmd.configureOutput({
      outputError: (text) => {
        const joined = text
          .trimEnd()
          .replace(/\n\(Did you mean (.*)\?\)/, '; did you mean $1?')
          .replace(/\s*\n\s*/g, ' ');
        process.stderr.write(`${joined} (${help} --help for usage)\n`);
      },
    });
    cmd.commands.forEach(apply);
  };
  apply(program);
}
