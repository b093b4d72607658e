/**
 * Handler contexts for the pipeline resource tests: a real sandbox over HTTP, a client with the
 * limits a test chooses, and the warnings a handler reports.
 */
import pino from 'pino';
import type { PipelineClientOptions } from '../../../src/providers/pipeline/client.js';
import type { Ctx } from '../../../src/resources/pipeline/kit.js';
import { clientFor, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { contextWait } from '../../../src/engine/applying/wait.js';

/** A context whose warnings and recorded ids are kept for assertions. */
export type TestCtx = Ctx & { warnings: string[]; recorded: string[] };

/** A handler context against the sandbox. */
export function ctxFor(sandbox: PipelineSandbox, options: Partial<PipelineClientOptions> = {}): TestCtx {
  const client = clientFor(sandbox, options);
  const warnings: string[] = [];
  const recorded: string[] = [];
  const shared = new Map<string, Promise<unknown>>();
  return {
    client,
    settings: { apiKey: 'sandbox-key', apiSecret: 'sandbox-secret', apiUrl: client.baseUrl },
    log: pino({ level: 'silent' }),
    address: 'subject',
    project: 'test',
    stack: 'test',
    operationToken: `token-${Math.random().toString(36).slice(2)}`,
    waitTimeMs: 30_000,
    progress: () => {},
    warn: (message) => void warnings.push(message),
    recordId: (id) => void recorded.push(id),
    shared: <T>(key: string, make: () => Promise<T>) => {
      if (!shared.has(key)) shared.set(key, make());
      return shared.get(key) as Promise<T>;
    },
    wait: contextWait(),
    warnings,
    recorded,
  };
}
