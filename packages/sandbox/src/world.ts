import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, type SandboxSettings } from './settings.js';
import type { SandboxWorld } from './types.js';

/**
 * The sandbox's persistent world: one JSON file per provider plus settings.json in `dir`
 * (or memory only when dir is undefined). Writes are batched: `save()` marks data dirty and a
 * timer (or `flush()`) writes it atomically. The timer waits at least 100 ms and at least ten
 * times as long as the last write took, so a large world costs at most a tenth of the time in
 * rewrites however fast calls arrive.
 */
export class FileWorld implements SandboxWorld {
  private readonly cache = new Map<string, unknown>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private current: SandboxSettings;
  /** What the data folder keeps: settings changed through the admin API, not those `given`. */
  private kept: Partial<SandboxSettings>;
  private lastFlushMs = 0;

  /**
   * `given` (from the command line or environment) wins over what the data folder has kept, for
   * as long as this world runs: it is never written there.
   */
  constructor(
    private readonly dir: string | undefined,
    given: Partial<SandboxSettings> = {},
  ) {
    // What the simulated APIs hold includes the keys and passwords they were sent: owner only.
    if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.kept = this.load<Partial<SandboxSettings>>('settings') ?? {};
    this.current = { ...DEFAULT_SETTINGS, ...this.kept, ...given };
  }

  now(): number {
    return Date.now();
  }

  provisioningMs(): number {
    return this.current.provisioningMs;
  }

  setProvisioningMs(ms: number): void {
    this.updateSettings({ provisioningMs: ms });
  }

  settings(): SandboxSettings {
    return { ...this.current };
  }

  /** Changes some settings; they are kept in the data folder. */
  updateSettings(patch: Partial<SandboxSettings>): void {
    this.current = { ...this.current, ...patch };
    this.kept = { ...this.kept, ...patch };
    this.markDirty('settings');
  }

  data<T>(provider: string, init: () => T): T {
    if (!this.cache.has(provider)) {
      const loaded = this.load<T>(provider);
      this.cache.set(provider, loaded ?? init());
      if (loaded === undefined) this.markDirty(provider);
    }
    return this.cache.get(provider) as T;
  }

  save(provider?: string): void {
    if (provider !== undefined) this.dirty.add(provider);
    else for (const key of this.cache.keys()) this.dirty.add(key);
    this.schedule();
  }

  /** Writes everything pending now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dir) {
      this.dirty.clear();
      return;
    }
    const started = Date.now();
    for (const key of this.dirty) {
      const value = key === 'settings' ? this.kept : this.cache.get(key);
      const file = join(this.dir, `${key}.json`);
      writeFileSync(`${file}.tmp`, JSON.stringify(value), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    }
    this.dirty.clear();
    this.lastFlushMs = Date.now() - started;
  }

  private markDirty(key: string): void {
    this.dirty.add(key);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || !this.dir) return;
    this.timer = setTimeout(() => this.flush(), Math.max(100, this.lastFlushMs * 10));
    this.timer.unref();
  }

  private load<T>(key: string): T | undefined {
    if (!this.dir) return undefined;
    const file = join(this.dir, `${key}.json`);
    if (!existsSync(file)) return undefined;
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  }
}
