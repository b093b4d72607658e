/**
 * One stack of the generated lifecycle suite, run in-process as the CLI runs it: a manifest in a
 * folder of its own, opened by the CLI's own session (checks, connections, local state), planned
 * with makePlan, applied with applyPlan and checked for drift with detectDrift, each command in a
 * session of its own. Providers reach the sandbox PLUMB_SANDBOX_URL names, as the CLI's do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { changesSomething } from '../../src/cli/render-plan.js';
import { lockInfo, openSession, type Session } from '../../src/cli/session.js';
import { DiagnosticsError, formatDiagnostic } from '../../src/kernel/diagnostics.js';
import { applyPlan, type ApplyReport } from '../../src/engine/applying/apply.js';
import type { StateSnapshot } from '../../src/engine/contracts/state.js';
import { detectDrift, type DriftReport } from '../../src/engine/planning/drift.js';
import { makePlan } from '../../src/engine/planning/plan.js';
import type { Plan } from '../../src/engine/types.js';

/** The address of the one resource a generated stack declares. */
export const SUBJECT = 'subject';

/** What a plan or an apply came to: refused before any call (with the diagnostics' text), or a plan and, for an apply, its report. */
export type Outcome = { refused: string } | { plan: Plan; report?: ApplyReport };

/** A stack of one resource of one type, in its own folder. */
export class GeneratedStack {
  private readonly file: string;

  constructor(
    readonly dir: string,
    private readonly token: string,
    private readonly config: Record<string, string>,
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, 'plumb.yaml');
  }

  /** Writes the manifest: the subject with these inputs, or no resource at all. */
  declare(inputs: Record<string, unknown> | undefined): void {
    const resources = inputs ? { [SUBJECT]: { type: this.token, properties: inputs } } : {};
    writeFileSync(this.file, stringify({ name: 'generated', config: this.config, resources }));
  }

  /** `plumb plan` (with refresh): the plan, or the refusal made before any call. */
  async plan(): Promise<Outcome> {
    return this.session(async (session, state) => ({ plan: await this.planned(session, state, false).then((p) => p.plan) }));
  }

  /** `plumb apply --yes` (or `destroy --yes`, or `apply --replace <address>` for each address of `replace`): plans, then applies what was planned. */
  async apply(destroy = false, replace: string[] = []): Promise<Outcome> {
    return this.session(async (session, state) => {
      const planned = await this.planned(session, state, destroy, replace);
      if (!planned.plan.changes.some(changesSomething)) return { plan: planned.plan };
      const { plan, prior, imported, read, waiting, resolved } = planned;
      const report = await applyPlan({ manifest: session.manifest, plan, prior, imported, read, waiting, resolved, state, store: session.store, deps: session.deps, parallelism: 10, emit: () => {} });
      return { plan, report };
    }, destroy);
  }

  /** `plumb drift`: the report and the exit code the command gives it (0 in sync, 2 drift, 1 an error). */
  async drift(): Promise<{ exit: number; report: DriftReport }> {
    const session = await openSession(this.file, { stack: 'gen' });
    try {
      const report = await detectDrift(await session.store.read(), session.manifest, session.deps);
      const exit = report.summary.errors ? 1 : report.summary.drifted || report.summary.deleted ? 2 : 0;
      return { exit, report };
    } finally {
      await session.close();
    }
  }

  /** The stack's state as recorded. */
  async state(): Promise<StateSnapshot> {
    const session = await openSession(this.file, { stack: 'gen' });
    try {
      return await session.store.read();
    } finally {
      await session.close();
    }
  }

  /** Opens a planning session under the stack's lock, checked as the CLI checks before planning; a refusal is an outcome. */
  private async session(run: (session: Session, state: StateSnapshot) => Promise<Outcome>, destroy = false): Promise<Outcome> {
    let session: Session | undefined;
    try {
      session = await openSession(this.file, { stack: 'gen' }, true);
      await session.store.lock(lockInfo('generated'));
      const state = await session.store.read();
      await session.checkBeforePlan(state, destroy);
      return await run(session, state);
    } catch (error) {
      if (error instanceof DiagnosticsError) return { refused: error.diagnostics.map(formatDiagnostic).join('\n') };
      throw error;
    } finally {
      await session?.close();
    }
  }

  private async planned(session: Session, state: StateSnapshot, destroy: boolean, replace: string[] = []) {
    const planned = await makePlan(session.manifest, session.graph, state, session.deps, { refresh: true, destroy, replace });
    if (planned.diagnostics.length) throw new DiagnosticsError(planned.diagnostics);
    return planned;
  }
}
