/**
 * A config left out of the manifest, and a key cleared: the plan must not show a change the
 * apply leaves undone. A config the manifest does not give is left to the API, as a key it leaves
 * out is: no change is planned and nothing is sent. A key given as null is cleared, as the API's
 * merge of a config PATCH takes it. Judged by what the API reports of the object. Every registered pipeline type with a `config` input needs a case here,
 * so the next one added cannot skip it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { classify } from '../../../src/engine/planning/classify.js';
import type { ResourceType } from '../../../src/engine/contracts/resource-type.js';
import { pipelineResources } from '../../../src/resources/pipeline/index.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { reveal } from '../../../src/kernel/values.js';
import { pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { ctxFor, type TestCtx } from './harness.js';

interface Case {
  /** The inputs it is made with, in a new group. */
  made: (groupId: string) => Record<string, unknown>;
  /** The config key then removed from the manifest. */
  removed: string;
  /** Where the API reports the object. */
  path: (id: string) => string;
}

const cases: Record<string, Case> = {
  'pipeline:index/destination:Destination': {
    made: (groupId) => ({
      groupId,
      service: 'postgres_warehouse',
      timeZoneOffset: '0',
      config: { host: 'dw.acme-data.io', port: 5432, user: 'loader', password: 'pw', database: 'dw', connection_type: 'Directly' },
    }),
    removed: 'connection_type',
    path: (id) => `/destinations/${id}`,
  },
  'pipeline:index/connection:Connection': {
    made: (groupId) => ({
      service: 'postgres',
      groupId,
      destinationSchema: { prefix: 'removal_pg' },
      config: { host: 'orders-db.acme-data.io', port: '5432', user: 'fivetran', password: 'pw-orders', database: 'orders', update_method: 'WAL' },
    }),
    removed: 'update_method',
    path: (id) => `/connections/${id}`,
  },
  'pipeline:index/externalLogging:ExternalLogging': {
    made: (groupId) => ({ groupId, service: 'datadog_log', config: { api_key: 'dd-key', hostname: 'logs.acme.test', region: 'US' } }),
    removed: 'hostname',
    path: (id) => `/external-logging/${id}`,
  },
  'pipeline:index/privateLink:PrivateLink': {
    made: () => ({ name: 'removal_link', region: 'AWS_US_EAST_1', service: 'SOURCE_AWS', config: { connection_service_name: 'com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60001', note: 'x' } }),
    removed: 'note',
    path: (id) => `/private-links/${id}`,
  },
};

/** Whether a type's inputs have a top-level `config`. */
function hasConfig(type: ResourceType): boolean {
  const shape = (type.inputs as unknown as { shape?: Record<string, unknown> }).shape;
  return type.inputs instanceof z.ZodObject && shape !== undefined && 'config' in shape;
}

const withConfig = pipelineResources.filter(hasConfig);
const context = { gone: false, replaceRequested: false, options: { ignoreChanges: [], replaceOnChanges: [] }, dependsOn: [] };

let sandbox: PipelineSandbox;
let ctx: TestCtx;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
  ctx = ctxFor(sandbox);
});
afterAll(async () => sandbox?.close());

describe('a config removed from the manifest, and a key cleared', () => {
  it('every pipeline type with a config has a case here', () => {
    expect(withConfig.map((t) => t.token).sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(withConfig.map((t) => [t.token, t] as const))('%s: a config left out is left to the API; a key given as null is cleared in the world', async (token, type) => {
    const spec = cases[token];
    const groupId = (await group.create(ctx, { name: `removal_${token.split(':').pop()!.toLowerCase()}` })).id;
    const made = spec.made(groupId);
    const { id, outputs } = await type.create(ctx, made);
    const prior = { address: 'subject', type: token, id, inputs: made, outputs, dependencies: [], status: 'ok' as const };
    const before = reveal(await ctx.client.get<{ config: Record<string, unknown> }>(spec.path(id))).config;
    const { config: _config, ...withoutConfig } = made;
    if (!z.safeParse(type.inputs, withoutConfig).success) {
      // A config the type requires cannot be left out: nothing to plan.
    } else {
      // Nothing is sent for a config the manifest does not give, so the plan shows no change.
      expect(classify('subject', type, withoutConfig, prior, false, context).action).toBe('noop');
    }
    expect(before).toHaveProperty(spec.removed);
    const cleared = { ...made, config: { ...(made.config as Record<string, unknown>), [spec.removed]: null } };
    if (!z.safeParse(type.inputs, cleared).success) return; // values the schema types as text: no null to clear with
    const change = classify('subject', type, cleared, prior, false, context);
    expect(change.action).toBe('update');
    await type.update(ctx, id, prior, cleared);
    const after = reveal(await ctx.client.get<{ config: Record<string, unknown> }>(spec.path(id))).config;
    expect(after).not.toHaveProperty(spec.removed);
    for (const key of Object.keys(made.config as Record<string, unknown>).filter((k) => k !== spec.removed)) expect(after).toHaveProperty(key);
  });
});
