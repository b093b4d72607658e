/**
 * Shared setup for the pipeline tests: a real sandbox over HTTP (@plumb/sandbox/testing/pipeline),
 * plumb's clients against it with a chosen page size, and lookup contexts.
 */
import pino from 'pino';
import type { LookupContext } from '../../src/engine/contracts/lookup.js';
import { PipelineClient, type PipelineClientOptions } from '../../src/providers/pipeline/client.js';
import { TEST_KEY, TEST_SECRET, type PipelineSandbox } from '@plumb/sandbox/testing/pipeline';

export { pipelineCall, pipelineRequest, pipelineSandbox, rawGet, TEST_AUTH, TEST_KEY, TEST_SECRET, TUNNELLED_WAREHOUSE, type Call, type PipelineSandbox } from '@plumb/sandbox/testing/pipeline';

/** A client for the sandbox; tests pick the page size and may replace sleep or fetch. */
export function clientFor(sandbox: PipelineSandbox, options: Partial<PipelineClientOptions> = {}): PipelineClient {
  return new PipelineClient({ baseUrl: sandbox.baseUrl, apiKey: TEST_KEY, apiSecret: TEST_SECRET, ...options });
}

/** A lookup context around a client; warnings are collected for assertions. */
export function contextFor(client: PipelineClient): LookupContext<PipelineClient> & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    client,
    settings: { apiKey: TEST_KEY, apiSecret: TEST_SECRET, apiUrl: client.baseUrl },
    log: pino({ level: 'silent' }),
    warn: (message: string) => void warnings.push(message),
    workDir: process.cwd(),
    warnings,
  };
}

/** A sleep that returns at once and records how long it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}
