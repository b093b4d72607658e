/**
 * Private link, agent, quickstart package, connector metadata and webhook lookups against the
 * sandbox: what the conformance suite does not cover.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProxyAgent } from '../../../src/lookups/pipeline/get-proxy-agent.js';
import { clientFor, contextFor, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import type { Sender } from '../../../src/providers/http.js';

describe('objects that leave optional fields out', () => {
  let sandbox: PipelineSandbox;
  beforeAll(async () => (sandbox = await pipelineSandbox()));
  afterAll(async () => sandbox.close());

  it('reads a proxy agent with only its id (the OpenAPI document requires none of its fields): null where the API says nothing', async () => {
    const served: Sender = async () => ({
      status: 200,
      ok: true,
      headers: { get: (name) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) },
      text: JSON.stringify({ code: 'Success', data: { id: 'bare_agent' } }),
    });
    const r = await getProxyAgent.invoke(contextFor(clientFor(sandbox, { send: served })), { id: 'bare_agent' } as never);
    expect(r).toEqual({ id: 'bare_agent', displayName: null, groupRegion: null, createdBy: null, registredAt: null });
  });
});
