/**
 * The lookups read what the pipeline resources make: a group, its destination and a connection
 * created through the types answer getGroup, getDestination, getConnection and getGroupConnections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnection } from '../../../src/lookups/pipeline/get-connection.js';
import { getDestination } from '../../../src/lookups/pipeline/get-destination.js';
import { getGroup } from '../../../src/lookups/pipeline/get-group.js';
import { getGroupConnections } from '../../../src/lookups/pipeline/get-group-connections.js';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { destination } from '../../../src/resources/pipeline/destination.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { clientFor, contextFor, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { ctxFor } from './harness.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

describe('lookups answer with what the resources made', () => {
  it('a group, its destination and a connection are found by id and in their group', async () => {
    const ctx = ctxFor(sandbox);
    const { id: groupId } = await group.create(ctx, { name: 'looked_up' });
    await destination.create(ctx, { groupId, service: 'big_query', timeZoneOffset: '+1', config: { project_id: 'p1', secret_key: 'k' } });
    const made = await connection.create(ctx, { service: 'postgres', groupId, destinationSchema: { prefix: 'pg_looked' }, config: { host: 'db', password: 'pw' } });
    const lookup = contextFor(clientFor(sandbox));
    expect(await getGroup.invoke(lookup, { id: groupId })).toMatchObject({ id: groupId, name: 'looked_up' });
    expect(await getDestination.invoke(lookup, { id: groupId })).toMatchObject({ id: groupId, service: 'big_query' });
    expect(await getConnection.invoke(lookup, { id: made.id })).toMatchObject({ id: made.id, service: 'postgres', groupId });
    const listed = (await getGroupConnections.invoke(lookup, { id: groupId })) as { connections: Array<{ id: string }> };
    expect(listed.connections.map((c) => c.id)).toEqual([made.id]);
  });
});
