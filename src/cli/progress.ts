import type { EngineEvent } from '../engine/types.js';
import { eventLine } from './render-apply.js';
import type { Paint } from './render-plan.js';

const VERBS: Record<string, string> = {
  create: 'creating',
  'create-new': 'creating replacement',
  update: 'modifying',
  delete: 'destroying',
  'delete-old': 'destroying old object',
  'delete-deposed': 'destroying object set aside',
  import: 'importing',
};

interface Running {
  action: string;
  status?: string;
  started: number;
}

/** Where progress goes and how. */
export interface ProgressOptions {
  write(text: string): void;
  paint: Paint;
  /** A live, redrawn view (terminal) or one line per event (pipes, CI logs). */
  live: boolean;
  /** Steps in the plan, for the done/remaining count. */
  total: number;
  /** How often a line-mode run reports work still in progress (Terraform: 10 s). */
  stillEveryMs?: number;
}

/**
 * Output gathered for a moment (50 ms, or until 64 KB wait) and written in one call. A large apply
 * emits several lines per step, and a write per line — or per turn of the event loop, which is
 * about one per answer — was a large share of its CPU time. Text keeps its order; `flush` writes
 * what waits at once, and so does the process exiting (an error, process.exit) while text still
 * waits — stdout to a file or pipe is written synchronously then. Ctrl-C (SIGINT) and SIGTERM
 * write it too, then end the process by that signal as they would have. Only a kill that can't be
 * caught (SIGKILL) loses the last moment's text; state never depends on it.
 */
export class OutputBatch {
  private pending: string[] = [];
  private size = 0;
  private due: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly onExit = () => this.flush();
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.close();
    process.kill(process.pid, signal);
  };

  constructor(
    private readonly sink: (text: string) => void,
    private readonly windowMs = 50,
  ) {
    process.on('exit', this.onExit);
    process.once('SIGINT', this.onSignal);
    process.once('SIGTERM', this.onSignal);
  }

  /** Queues text, written within the window. */
  write(text: string): void {
    if (this.closed) return this.sink(text);
    this.pending.push(text);
    this.size += text.length;
    if (this.size >= 65536) this.flush();
    else this.due ??= setTimeout(() => this.flush(), this.windowMs);
  }

  /** Writes everything queued now. */
  flush(): void {
    if (this.due) clearTimeout(this.due);
    this.due = undefined;
    if (!this.pending.length) return;
    const text = this.pending.join('');
    this.pending = [];
    this.size = 0;
    this.sink(text);
  }

  /** Flushes and stops watching for exit and signals; later writes go straight through. */
  close(): void {
    this.flush();
    process.removeListener('exit', this.onExit);
    process.removeListener('SIGINT', this.onSignal);
    process.removeListener('SIGTERM', this.onSignal);
    this.closed = true;
  }
}

/**
 * Renders apply progress. On a terminal: finished events scroll above a footer with one line
 * per running resource (action, address, provisioning status, elapsed time) and the counts.
 * Elsewhere: one timestamped line per event, and "still creating... (1m10s elapsed)" lines.
 */
export class ProgressView {
  private readonly running = new Map<string, Running>();
  private done = 0;
  private footerLines = 0;
  private redrawDue: NodeJS.Immediate | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly opts: ProgressOptions) {
    const every = opts.live ? 1000 : (opts.stillEveryMs ?? 10_000);
    this.timer = setInterval(() => (opts.live ? this.redraw() : this.still()), every);
    this.timer.unref();
  }

  /** Takes one engine event. */
  handle(event: EngineEvent): void {
    if (event.type === 'step-start') this.running.set(event.address, { action: event.action, started: Date.now() });
    if (event.type === 'step-progress') {
      const r = this.running.get(event.address);
      if (r) r.status = event.status;
    }
    if (event.type === 'step-done' || event.type === 'step-failed' || event.type === 'step-skipped') {
      this.running.delete(event.address);
      this.done++;
    }
    const line = eventLine(event, this.opts.paint, !this.opts.live);
    if (this.opts.live) {
      // Progress statuses live in the footer; everything else scrolls above it. The footer is
      // drawn once per turn of the event loop, however many events that turn brought.
      if (event.type !== 'step-progress' && line) this.above(line);
      this.redrawDue ??= setImmediate(() => this.redraw());
    } else if (line) this.opts.write(`${line}\n`);
  }

  /** Stops the timer and clears the footer. */
  finish(): void {
    clearInterval(this.timer);
    if (this.redrawDue) clearImmediate(this.redrawDue);
    this.redrawDue = undefined;
    if (this.opts.live) this.clearFooter();
  }

  private above(line: string): void {
    this.clearFooter();
    this.opts.write(`${line}\n`);
  }

  private clearFooter(): void {
    if (this.footerLines) this.opts.write(`\x1b[${this.footerLines}A\x1b[J`);
    this.footerLines = 0;
  }

  private redraw(): void {
    if (this.redrawDue) clearImmediate(this.redrawDue);
    this.redrawDue = undefined;
    this.clearFooter();
    const p = this.opts.paint;
    const lines = [...this.running.entries()].map(
      ([address, r]) => `  ${p.cyan('•')} ${VERBS[r.action] ?? r.action} ${address}${r.status ? ` [${r.status}]` : ''} ${p.dim(elapsed(Date.now() - r.started))}`,
    );
    lines.push(p.bold(`${this.done}/${this.opts.total} done, ${this.running.size} running, ${Math.max(0, this.opts.total - this.done - this.running.size)} waiting`));
    this.opts.write(`${lines.join('\n')}\n`);
    this.footerLines = lines.length;
  }

  private still(): void {
    const stamp = new Date().toISOString();
    for (const [address, r] of this.running) {
      this.opts.write(`${stamp} ${address}: still ${VERBS[r.action] ?? r.action}...${r.status ? ` [${r.status}]` : ''} (${elapsed(Date.now() - r.started)} elapsed)\n`);
    }
  }
}

/** `1m10s`, `42s`. */
export function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}
