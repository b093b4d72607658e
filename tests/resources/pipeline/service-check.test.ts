/**
 * The plan refuses, before any order, a connection whose service the connector catalogue does not
 * list, at `service`, with the closest it lists; the API would refuse it only at create. Judged
 * against the world: the sandbox refuses the create exactly when the check does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrossCheckView, StackResource } from '../../../src/engine/contracts/resource-type.js';
import { getConnectorsMetadata } from '../../../src/lookups/pipeline/get-connectors-metadata.js';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { clientFor, contextFor, pipelineCall, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { crossCheckView } from '../../support/cross-check-view.js';
import { ctxFor } from './harness.js';

let sandbox: PipelineSandbox;
let groupId: string;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
  groupId = (await group.create(ctxFor(sandbox), { name: 'service_checks' })).id;
});
afterAll(async () => sandbox?.close());

/** The view a plan gives the check of one resource, its lookups answered by the sandbox; `reads` counts them. */
function viewOf(subject: StackResource, reads: string[] = []): CrossCheckView {
  return crossCheckView(subject, { ctx: contextFor(clientFor(sandbox)), lookups: [getConnectorsMetadata], reads });
}

const source = (service: string) => ({
  service,
  groupId,
  destinationSchema: { prefix: `svc_${service.replace(/\W/g, '_')}` },
  config: { host: 'db.acme.test', port: '5432', user: 'u', password: 'pw', database: 'd' },
});

describe("a connection's service", () => {
  it('the catalogue does not list is refused at service with the closest it lists, and the API refuses it too', async () => {
    const desired = source('postgress');
    const problems = await connection.crossCheck!(desired, viewOf({ address: 'pg', token: connection.token, desired }));
    expect(problems).toEqual([{ path: ['service'], message: expect.stringMatching(/^the API offers no connector service "postgress"; did you mean "postgres"/), detail: expect.any(String) }]);
    const refused = await pipelineCall(sandbox.url, 'POST', '/connections', { group_id: groupId, service: 'postgress', config: { schema_prefix: 'svc_refused' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
  });

  it('the catalogue lists passes, and the API takes it', async () => {
    const desired = source('postgres');
    expect(await connection.crossCheck!(desired, viewOf({ address: 'pg', token: connection.token, desired }))).toEqual([]);
    await expect(connection.create(ctxFor(sandbox), desired)).resolves.toMatchObject({ id: expect.any(String) });
  });

  it('of a connection applied with it is not read again: nothing is ordered', async () => {
    const desired = source('postgress');
    const reads: string[] = [];
    const subject = { address: 'pg', token: connection.token, desired, recorded: { id: 'x', inputs: desired, outputs: {} } };
    expect(await connection.crossCheck!(desired, viewOf(subject, reads))).toEqual([]);
    expect(reads).toEqual([]);
  });
});
