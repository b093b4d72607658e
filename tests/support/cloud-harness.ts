/** A cloud sandbox plus a connected client and the contexts handlers and lookups need. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { cloudProvider, type CloudClient, type CloudSettings } from '../../src/providers/cloud/index.js';
import type { ResourceContext } from '../../src/engine/contracts/resource-type.js';
import type { LookupContext } from '../../src/engine/contracts/lookup.js';
import { cloudApi, startSandbox, type Sandbox } from '@plumb/sandbox';
import { contextWait } from '../../src/engine/applying/wait.js';

/** One received call as the sandbox logs it. */
export interface LoggedCall {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
}

/** Everything a cloud test needs, against a fresh in-memory sandbox. */
export interface Harness {
  sandbox: Sandbox;
  settings: CloudSettings;
  client: CloudClient;
  workDir: string;
  progress: string[];
  warnings: string[];
  /** Ids handlers recorded before waiting for provisioning. */
  recorded: string[];
  resourceCtx(address?: string, waitTimeMs?: number): ResourceContext<CloudClient, CloudSettings>;
  lookupCtx(): LookupContext<CloudClient, CloudSettings>;
  /** Actions received since the last clear, in order (from the sandbox call log). */
  actions(): Promise<string[]>;
  clearCalls(): Promise<void>;
  admin(path: string, method: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** Silent logger for tests. */
export const silent = pino({ level: 'silent' });

/** Starts a sandbox (instant provisioning unless told) and connects a client with no keys. */
export async function startHarness(options: { provisioningMs?: number; settings?: Record<string, unknown>; env?: Record<string, string> } = {}): Promise<Harness> {
  const sandbox = await startSandbox({ provisioningMs: options.provisioningMs ?? 0, apis: [cloudApi] });
  const settings = cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox', ...options.settings });
  const client = await cloudProvider.connect(settings, { sandboxUrl: async () => sandbox.url, log: silent, env: options.env ?? {} });
  const workDir = mkdtempSync(join(tmpdir(), 'plumb-cloud-'));
  const progress: string[] = [];
  const warnings: string[] = [];
  const recorded: string[] = [];
  const admin = (path: string, method: string, body?: unknown) =>
    fetch(`${sandbox.url}/_sandbox/${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return {
    sandbox,
    settings,
    client,
    workDir,
    progress,
    warnings,
    recorded,
    resourceCtx: (address = 'res', waitTimeMs = 10_000) => ({
      client,
      settings,
      log: silent,
      address,
      project: 'test',
      stack: 'test',
      operationToken: randomUUID(),
      waitTimeMs,
      progress: (s) => progress.push(s),
      warn: (m) => warnings.push(m),
      recordId: (id) => recorded.push(id),
      shared: (_key, make) => make(),
      wait: contextWait(),
    }),
    lookupCtx: () => ({ client, settings, log: silent, warn: (m) => warnings.push(m), workDir }),
    actions: async () => {
      const calls = (await (await admin('calls?provider=cloud', 'GET')).json()) as LoggedCall[];
      return calls.map((c) => String(c.query.Action ?? ''));
    },
    clearCalls: async () => {
      await admin('calls', 'DELETE');
    },
    admin,
    close: () => sandbox.close(),
  };
}

/** Counts how often each Action appears. */
export function countActions(actions: string[], action: string): number {
  return actions.filter((a) => a === action).length;
}
