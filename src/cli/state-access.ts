import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { UserError } from '../kernel/errors.js';
import type { StateStore } from '../state/store.js';
import type { ReadOptions, StateSnapshot } from '../engine/contracts/state.js';
import { globalFlags, globalsOf } from './flags.js';
import type { GlobalOptions } from './session.js';

// Loaded when a state command runs, not when the CLI starts: every other command's start-up
// (`plumb --help` most of all) would otherwise load the manifest checks and resource types.
const stateStore = () => import('./state-store.js');
const session = () => import('./session.js');

/** Where a state command's state is: the manifest's folder and project (its name), or --project beside no manifest. */
export interface StatePlace {
  opts: GlobalOptions & { project?: string };
  dir: string;
  project: string;
  /** The manifest, when the state was found through one. */
  file: string | undefined;
}

/** Adds the flags that say whose state a state command works on (with the global flags). */
export function placeFlags(cmd: Command): Command {
  return globalFlags(cmd.option('--project <name>', "the project whose state to use, without its manifest (a manifest's name)"));
}

/**
 * How the `plumb state` subcommands reach their store. The place flags are taken before or after
 * the subcommand (`plumb state list -f edge.yaml`), the later winning.
 */
export class StateAccess {
  private current: Command;

  constructor(private readonly state: Command) {
    this.current = state;
    state.hook('preAction', (_state, action) => {
      this.current = action;
    });
  }

  /** The state's place, from the flags given; no manifest and no --project is refused. */
  async where(): Promise<StatePlace> {
    const project = (this.current.opts().project ?? this.state.opts().project) as string | undefined;
    const opts: StatePlace['opts'] = { ...globalsOf(this.current), ...(project === undefined ? {} : { project }) };
    const { manifestProject } = await stateStore();
    const { manifestDir, manifestPath } = await session();
    if (opts.file !== undefined || !opts.project) {
      let file: string;
      try {
        file = manifestPath(undefined, opts);
      } catch (err) {
        if (opts.file === undefined && err instanceof UserError && /not found$/.test(err.message))
          throw new UserError(err.message, 'state is kept per manifest: give the manifest whose state to use, or its name, with -f MANIFEST or --project NAME');
        throw err;
      }
      return { opts, dir: manifestDir(file), project: opts.project ?? manifestProject(file), file };
    }
    const { DEFAULT_MANIFEST, PROJECT_FILE } = await import('../manifest/project.js');
    // With --project, a manifest of this folder only places the state; two of them (an error elsewhere) place it here.
    if (existsSync(DEFAULT_MANIFEST) !== existsSync(PROJECT_FILE)) {
      const file = manifestPath(undefined, opts);
      return { opts, dir: manifestDir(file), project: opts.project, file };
    }
    return { opts, dir: process.cwd(), project: opts.project, file: undefined };
  }

  /** The store of the state's place. */
  async open(): Promise<StateStore> {
    const { opts, dir, project } = await this.where();
    return (await stateStore()).openStore(opts, dir, project);
  }

  /** The state as recorded, journal replayed. */
  async read(): Promise<StateSnapshot> {
    const store = await this.open();
    try {
      return await store.read();
    } finally {
      await store.close();
    }
  }

  /**
   * Runs a change of state under the lock and writes it as a new serial; refused while
   * operations are interrupted, since the edit could lose what settling them would record,
   * unless `interrupted` says the edit deals with them itself (`state rm` forgets some).
   */
  async change(command: string, edit: (snapshot: StateSnapshot) => StateSnapshot | Promise<StateSnapshot>, interrupted: 'refuse' | 'edit' = 'refuse', options?: ReadOptions): Promise<void> {
    const store = await this.open();
    try {
      await store.lock(await lockInfo(`state ${command}`));
      const snapshot = await store.read(options);
      if (snapshot.pending.length && interrupted === 'refuse') {
        const addresses = [...new Set(snapshot.pending.map((p) => p.address))].sort().join(', ');
        throw new UserError(
          `the state has interrupted operations of ${addresses}`,
          'run plumb plan or apply first so they are settled; one plumb cannot settle is forgotten with plumb state rm ADDRESS',
        );
      }
      await store.write(await edit(snapshot));
    } finally {
      await store.close();
    }
  }
}

/** Lock holder details for this process running `command`. */
export async function lockInfo(command: string) {
  return (await session()).lockInfo(command);
}
