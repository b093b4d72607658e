import type { EngineEvent } from '../engine/types.js';
import { elapsed, eventLine, noticeText } from './render-apply.js';
import { displayAddress, type Paint } from './render-plan.js';

const VERBS: Record<string, string> = {
  create: 'creating',
  'create-new': 'creating replacement',
  update: 'modifying',
  delete: 'destroying',
  'delete-old': 'destroying old object',
  'delete-deposed': 'destroying object set aside',
  import: 'importing',
  wait: 'waiting until ready',
};

interface Running {
  action: string;
  status?: string;
  started: number;
  /** How many "still creating" lines it has had. */
  reminded: number;
}

/** Where progress goes and how. */
export interface ProgressOptions {
  write(text: string): void;
  paint: Paint;
  /** A live, redrawn view (terminal) or one line per change (pipes, CI logs). */
  live: boolean;
  /** Steps in the plan, for the done/remaining count. */
  total: number;
  /** The terminal's height in lines, if known: the live footer never grows past it. */
  rows?: () => number | undefined;
  /** How often a line-mode run says a step is still at work (Terraform: every 10 s of it). */
  stillEveryMs?: number;
  /** Line mode: each line starts with its time (default); off for notices on a terminal. */
  timestamps?: boolean;
  /** The clock; a replay of recorded events brings its own, drives `tick()` and runs no timer. */
  now?: () => number;
  timer?: boolean;
}

/**
 * Renders apply progress. On a terminal: finished events scroll above a footer with one line
 * per running resource (action, address, provisioning status, elapsed time) and the counts.
 * Elsewhere (CI logs): one timestamped line per change of status — a status polled again and
 * found the same prints nothing — and, every 10 s of a step's work, "still creating... (1m10s
 * elapsed)". Notices that repeat (the same call retried, the same connection error) print once,
 * then a count of the repeats.
 */
export class ProgressView {
  private readonly running = new Map<string, Running>();
  private done = 0;
  private footerLines = 0;
  private redrawDue: NodeJS.Immediate | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly every: number;
  private readonly now: () => number;
  private repeat: { key: string; text: string; count: number } | undefined;

  constructor(private readonly opts: ProgressOptions) {
    this.every = opts.stillEveryMs ?? 10_000;
    this.now = opts.now ?? Date.now;
    if (opts.timer !== false) {
      // Checked often enough that a step's reminder comes within a tenth of its period.
      this.timer = setInterval(() => this.tick(), opts.live ? 1000 : Math.max(50, Math.min(1000, this.every / 10)));
      this.timer.unref();
    }
  }

  /** Takes one engine event. */
  handle(event: EngineEvent): void {
    if (event.type === 'step-progress') {
      const r = this.running.get(event.address);
      if (r?.status === event.status) return;
      if (r) r.status = event.status;
    }
    if (event.type === 'retry') return this.notice(`${event.provider}|${event.kind}|${event.reason}`, event);
    if (event.type === 'rate-wait') return this.notice(`${event.provider}|rate-wait`, event);
    this.endRepeat();
    if (event.type === 'step-start') this.running.set(event.address, { action: event.action, started: this.clock(event.at), reminded: 0 });
    if (event.type === 'step-done' || event.type === 'step-failed' || event.type === 'step-skipped') {
      this.running.delete(event.address);
      this.done++;
    }
    const line = eventLine(event, this.opts.paint, this.stamped());
    if (this.opts.live) {
      // Progress statuses live in the footer; everything else scrolls above it. The footer is
      // drawn once per turn of the event loop, however many events that turn brought.
      if (event.type !== 'step-progress' && line) this.above(line);
      this.redrawDue ??= setImmediate(() => this.redraw());
    } else if (line) this.opts.write(`${line}\n`);
  }

  /** What a line-mode view does every moment: "still creating..." for steps at work another period. */
  tick(): void {
    if (this.opts.live) return this.redraw();
    const now = this.now();
    for (const [address, r] of this.running) {
      const periods = Math.floor((now - r.started) / this.every);
      if (periods <= r.reminded) continue;
      r.reminded = periods;
      this.endRepeat();
      const stamp = this.stamped() ? `${new Date(now).toISOString()} ` : '';
      this.opts.write(`${stamp}${displayAddress(address)}: still ${VERBS[r.action] ?? r.action}...${r.status ? ` [${r.status}]` : ''} (${elapsed(now - r.started)} elapsed)\n`);
    }
  }

  /**
   * What Ctrl-C leaves: the steps in flight, whose outcome the journal keeps as pending, and what
   * the next run does with them.
   */
  interrupted(): string {
    const p = this.opts.paint;
    const inFlight = [...this.running.entries()];
    const lines = [''];
    if (!inFlight.length) lines.push(p.yellow('Interrupted between steps: every finished step is recorded in state; nothing was in flight.'));
    else {
      lines.push(p.yellow(`Interrupted with ${inFlight.length} step${inFlight.length === 1 ? '' : 's'} in flight:`));
      for (const [address, r] of inFlight) lines.push(`  ${displayAddress(address)}: ${VERBS[r.action] ?? r.action}${r.status ? ` [${r.status}]` : ''}`);
      lines.push(
        'What each one started is recorded as pending. The next plumb plan or apply asks the API what became of it and settles it first:',
        'an object that was made is adopted (never ordered twice), one that was not is planned again.',
      );
    }
    return `${lines.join('\n')}\n`;
  }

  /** Stops the timer, says how often the last notice repeated, and clears the footer. */
  finish(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.redrawDue) clearImmediate(this.redrawDue);
    this.redrawDue = undefined;
    this.endRepeat();
    if (this.opts.live) this.clearFooter();
  }

  /** A notice that may repeat: printed the first time, then counted until something else is printed. */
  private notice(key: string, event: Extract<EngineEvent, { type: 'retry' | 'rate-wait' }>): void {
    if (this.repeat?.key === key) {
      this.repeat.count++;
      return;
    }
    this.endRepeat();
    this.repeat = { key, text: noticeText(event, false), count: 0 };
    this.line(event.at, noticeText(event, true));
  }

  private endRepeat(): void {
    const r = this.repeat;
    this.repeat = undefined;
    if (r?.count) this.line(new Date(this.now()).toISOString(), `${r.text}: ${r.count} more time${r.count === 1 ? '' : 's'}`);
  }

  private line(at: string, text: string): void {
    const line = this.opts.paint.yellow(text);
    if (this.opts.live) {
      this.above(line);
      this.redrawDue ??= setImmediate(() => this.redraw());
    } else this.opts.write(`${this.stamped() ? `${at} ` : ''}${line}\n`);
  }

  private stamped(): boolean {
    return this.opts.timestamps ?? !this.opts.live;
  }

  /** When an event happened, by its own time: a replay's clock is the recorded one. */
  private clock(at: string): number {
    return this.opts.timer === false ? Date.parse(at) : this.now();
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
    if (!this.opts.live) return;
    this.clearFooter();
    const p = this.opts.paint;
    const now = this.now();
    // A footer taller than the terminal cannot be cleared (the cursor stops at the top), so the
    // longest-running steps are shown and the rest counted; a line is kept for the totals.
    const room = Math.max(2, (this.opts.rows?.() || Infinity) - 2);
    const running = [...this.running.entries()];
    const shown = running.length > room ? running.slice(0, room - 1) : running;
    const lines = shown.map(([address, r]) => `  ${p.cyan('•')} ${VERBS[r.action] ?? r.action} ${displayAddress(address)}${r.status ? ` [${r.status}]` : ''} ${p.dim(elapsed(now - r.started))}`);
    if (shown.length < running.length) lines.push(p.dim(`  … and ${running.length - shown.length} more running`));
    lines.push(p.bold(`${this.done}/${this.opts.total} done, ${this.running.size} running, ${Math.max(0, this.opts.total - this.done - this.running.size)} waiting`));
    this.opts.write(`${lines.join('\n')}\n`);
    this.footerLines = lines.length;
  }
}

/**
 * A filter for an event stream that lets a step's status through only when it changed: a
 * provisioning status is polled every few hundred milliseconds and is mostly the same.
 */
export function statusChanges(): (event: EngineEvent) => boolean {
  const last = new Map<string, string>();
  return (event) => {
    if (event.type === 'step-start') last.delete(event.address);
    if (event.type !== 'step-progress') return true;
    if (last.get(event.address) === event.status) return false;
    last.set(event.address, event.status);
    return true;
  };
}
