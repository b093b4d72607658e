/** Output and signals of a command that prints progress; the view itself is in progress-view.ts. */

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
    const words = this.lastWords?.();
    if (words) this.write(words);
    this.close();
    process.kill(process.pid, signal);
  };

  /** Text written once more before the process ends by a signal: what Ctrl-C left in flight. */
  lastWords?: () => string | undefined;

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

/** The view that renders engine events (render-progress.ts). */
export { ProgressView, statusChanges, type ProgressOptions } from './render-progress.js';
