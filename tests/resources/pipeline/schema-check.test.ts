/**
 * The plan refuses, before any call, a ConnectionSchemaConfig naming a schema or table its
 * connection's source does not have, at its path, with the closest names the source has; the API
 * refuses the whole PATCH for it at apply. Judged against the world: the sandbox refuses the
 * PATCH exactly when the check does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrossCheckView, StackResource } from '../../../src/engine/contracts/resource-type.js';
import { getConnectionSchemas } from '../../../src/lookups/pipeline/get-connection-schemas.js';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { connectionSchemaConfig } from '../../../src/resources/pipeline/connection-schema-config.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { clientFor, contextFor, pipelineCall, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { crossCheckView } from '../../support/cross-check-view.js';
import { ctxFor } from './harness.js';

let sandbox: PipelineSandbox;
let id: string;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
  const groupId = (await group.create(ctxFor(sandbox), { name: 'schema_checks' })).id;
  id = (await connection.create(ctxFor(sandbox), { service: 'postgres', groupId, destinationSchema: { prefix: 'pg_checked' } })).id;
  expect((await pipelineCall(sandbox.url, 'POST', `/connections/${id}/schemas/reload`, { exclude_mode: 'PRESERVE' })).status).toBe(200);
});
afterAll(async () => sandbox?.close());

/** The view a plan gives the check of one resource, its lookups answered by the sandbox; `reads` counts them. */
function viewOf(subject: StackResource, reads: string[] = []): CrossCheckView {
  return crossCheckView(subject, { ctx: contextFor(clientFor(sandbox)), lookups: [getConnectionSchemas], reads });
}

const check = (desired: Record<string, unknown>, subject: Partial<StackResource> = {}, reads: string[] = []) =>
  connectionSchemaConfig.crossCheck!(desired as never, viewOf({ address: 'cfg', token: connectionSchemaConfig.token, desired, ...subject }, reads));

describe('a schema config', () => {
  it('naming a schema or table the source lacks is refused at each path, with the closest it has, and the API refuses it too', async () => {
    const desired = { connectionId: id, schemas: { pubic: { enabled: true }, public: { tables: { Orders: { enabled: false }, customers: { enabled: true } } } } };
    const problems = await check(desired);
    expect(problems.map((p) => [p.path.join('.'), p.message])).toEqual([
      ['schemas.pubic', expect.stringMatching(/has no schema "pubic"; did you mean "public"/)],
      ['schemas.public.tables.Orders', expect.stringMatching(/has no table "Orders"; did you mean "orders"/)],
    ]);
    const refused = await pipelineCall(sandbox.url, 'PATCH', `/connections/${id}/schemas`, { schemas: { public: { tables: { Orders: { enabled: false } } } } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
  });

  it('naming only what the source has passes, and the API takes it', async () => {
    const desired = { connectionId: id, schemas: { public: { tables: { orders: { enabled: false }, customers: { enabled: true } } } } };
    expect(await check(desired)).toEqual([]);
    await expect(connectionSchemaConfig.create(ctxFor(sandbox), desired as never)).resolves.toMatchObject({ id });
  });

  it('applied as it is is not read again', async () => {
    const reads: string[] = [];
    const desired = { connectionId: id, schemas: { pubic: {} } };
    expect(await check(desired, { recorded: { id, inputs: desired, outputs: {} } }, reads)).toEqual([]);
    expect(reads).toEqual([]);
  });
});
