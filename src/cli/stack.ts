import type { Command } from 'commander';
import { relative } from 'node:path';
import { globalFlags, globalsOf } from './flags.js';

/** One stack as `plumb stack ls` shows it. */
interface StackRow {
  name: string;
  /** The stack the command ran for (--stack, PLUMB_STACK or `default`). */
  current: boolean;
  /** When its state was last written (ISO time); null when it has only a settings file. */
  lastUpdate: string | null;
  /** Resources its state records; null when it has no state. */
  resourceCount: number | null;
  /** Its settings file, when it has one. */
  settings: string | null;
}

/** `plumb stack ls [--json]`: the project's stacks, as Pulumi's `pulumi stack ls` lists them. */
export function stackCommand(program: Command): void {
  const stack = globalFlags(program.command('stack').description("list the project's stacks"));
  globalFlags(stack.command('ls'))
    .description("list the project's stacks at its state location, and those that only have a settings file; the current one marked *")
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const rows = await stackRows(globalsOf(cmd));
      process.stdout.write(opts.json ? `${JSON.stringify(rows, null, 2)}\n` : table(rows));
    });
}

/** Every stack with state at the project's location or a settings file beside it, by name. */
async function stackRows(opts: ReturnType<typeof globalsOf>): Promise<StackRow[]> {
  const [{ manifestDir, manifestPath }, { manifestProject, openStore, stateLocation }, { stackConfigFiles }, { projectFor }, { lastUpdates }] = await Promise.all([
    import('./session.js'),
    import('./state-store.js'),
    import('../manifest/stack-config.js'),
    import('../manifest/project.js'),
    import('../state/stack-times.js'),
  ]);
  const file = manifestPath(undefined, opts);
  const dir = manifestDir(file);
  const project = manifestProject(file);
  const settings = stackConfigFiles({ file, projectFile: projectFor(file)?.file });
  const store = openStore(opts, dir, project);
  const recorded = await store.stacks().finally(() => store.close());
  const times = await lastUpdates(stateLocation(opts, dir), project, recorded);
  const rows: StackRow[] = [];
  for (const name of [...new Set([...recorded, ...settings.keys()])].sort()) {
    const row: StackRow = { name, current: name === opts.stack, lastUpdate: null, resourceCount: null, settings: settings.has(name) ? relative(process.cwd(), settings.get(name)!) : null };
    if (recorded.includes(name)) {
      const stackStore = openStore({ ...opts, stack: name }, dir, project);
      const snapshot = await stackStore.read().finally(() => stackStore.close());
      row.resourceCount = Object.keys(snapshot.resources).length;
      row.lastUpdate = times.get(name)?.toISOString() ?? null;
    }
    rows.push(row);
  }
  return rows;
}

/** The rows as Pulumi prints them: NAME (current marked *), LAST UPDATE, RESOURCE COUNT. */
function table(rows: StackRow[]): string {
  if (!rows.length) return 'No stacks yet: plumb apply --stack NAME makes one, plumb config set KEY VALUE --stack NAME gives one settings.\n';
  const cells = rows.map((r) => [`${r.name}${r.current ? '*' : ''}`, r.lastUpdate ?? 'n/a', r.resourceCount === null ? 'n/a' : String(r.resourceCount)]);
  const header = ['NAME', 'LAST UPDATE', 'RESOURCE COUNT'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i] + 2))).join('');
  return `${[header, ...cells].map(line).join('\n')}\n`;
}
