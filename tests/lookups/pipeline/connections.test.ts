/**
 * Connection and connector lookups against the sandbox: the rules
 * that give their fields the API's meaning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnection } from '../../../src/lookups/pipeline/get-connection.js';
import { getConnections } from '../../../src/lookups/pipeline/get-connections.js';
import { getConnector } from '../../../src/lookups/pipeline/get-connector.js';
import { getConnectors } from '../../../src/lookups/pipeline/get-connectors.js';
import { clientFor, contextFor, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import type { Sender } from '../../../src/providers/http.js';

describe('connection field meanings', () => {
  let sandbox: PipelineSandbox;
  beforeAll(async () => (sandbox = await pipelineSandbox()));
  afterAll(async () => sandbox.close());
  const invoke = (fn: typeof getConnections | typeof getConnection | typeof getConnector | typeof getConnectors, args: Record<string, unknown>) =>
    fn.invoke(contextFor(clientFor(sandbox)), args as never) as Promise<any>;

  it('sets networking ids exactly when the method uses them, daily time only for daily syncs, thresholds only for CUSTOM', async () => {
    const { connectors } = await invoke(getConnectors, {});
    for (const c of connectors) {
      expect(c.privateLinkId !== null, c.id).toBe(c.networkingMethod === 'PrivateLink');
      expect(c.proxyAgentId !== null, c.id).toBe(c.networkingMethod === 'ProxyAgent');
      if (c.dailySyncTime !== null) expect(c.syncFrequency, c.id).toBe(1440);
      if (c.dataDelaySensitivity !== 'CUSTOM') expect(c.dataDelayThreshold, c.id).toBe(0);
    }
    expect(connectors.find((c: any) => c.id === 'humble_pine')).toMatchObject({ dataDelaySensitivity: 'CUSTOM', dataDelayThreshold: 90 });
    expect(connectors.find((c: any) => c.id === 'tawny_owlet')).toMatchObject({ syncFrequency: 1440, dailySyncTime: null });
  });

  it("reads a connection that leaves optional fields out, as the vendor's own fixture of connection details does (no schedule_type)", async () => {
    // The go-fivetran fixture for GET /connections/{id}, as the API might send it.
    const fixture = {
      code: 'Success',
      data: {
        id: 'speak_inexpensive',
        group_id: 'projected_sickle',
        service: 'criteo',
        service_version: 0,
        schema: 'criteo',
        paused: true,
        pause_after_trial: true,
        connected_by: 'interment_burdensome',
        created_at: '2018-12-01T15:43:29.013729Z',
        succeeded_at: null,
        failed_at: null,
        sync_frequency: 1440,
        daily_sync_time: '03:00',
        hybrid_deployment_agent_id: 'hybrid_deployment_agent_id',
        proxy_agent_id: 'proxy_id',
        private_link_id: 'private_link_id',
        networking_method: 'networking_method',
        status: { setup_state: 'incomplete', sync_state: 'scheduled', update_state: 'on_schedule', is_historical_sync: true, tasks: [], warnings: [] },
        setup_tests: [{ title: 'Validate Login', status: 'FAILED', message: 'Invalid login credentials' }],
        config: { share_url: 'share_url', is_keypair: true, secrets_list: [{ key: 'key', value: 'value' }], fake_field: 'unmapped-value' },
      },
    };
    const served: Sender = async () => ({ status: 200, ok: true, headers: { get: (name) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) }, text: JSON.stringify(fixture) });
    const r = await getConnection.invoke(contextFor(clientFor(sandbox, { send: served })), { id: 'speak_inexpensive' } as never);
    expect(r).toMatchObject({ id: 'speak_inexpensive', scheduleType: null, dataDelaySensitivity: 'NORMAL', dataDelayThreshold: 0, syncFrequency: 1440, dailySyncTime: '03:00' });
    expect(r.status).toMatchObject({ setupState: 'incomplete', rescheduledFor: null, tasks: [], warnings: [] });
  });

  it('filters by schema name exactly and by paused state from CLI strings', async () => {
    const bySchema = await invoke(getConnections, { schemaName: 'pg_orders' });
    expect(bySchema.connections.map((c: any) => c.id)).toEqual(['ample_kitten']);
    expect((await invoke(getConnections, { schemaName: 'pg_ord' })).connections).toEqual([]);
    expect((await invoke(getConnections, { groupId: 'amber_falcon', schemaName: 'pg_orders' })).connections).toEqual([]);
    const paused = await invoke(getConnections, { groupId: 'decent_dropsy', paused: 'true' });
    expect(paused.paused).toBe(true);
    expect(paused.connections.map((c: any) => c.id).sort()).toEqual(['velvet_fox', 'zesty_mango']);
    const active = await invoke(getConnections, { groupId: 'decent_dropsy', paused: 'false' });
    expect(active.connections).toHaveLength(11);
  });

  it('reads a schema suffix as a table group for file services that use groups, or as the hint says', async () => {
    expect((await invoke(getConnection, { id: 'gusty_cliff' })).destinationSchema).toEqual({ name: 'sftp', prefix: null, table: null, tableGroupName: 'bank_statements' });
    const hinted = await invoke(getConnection, { id: 'tawny_owlet', destinationSchema: { tableGroupName: 'x' } });
    expect(hinted.destinationSchema).toEqual({ name: 'files', prefix: null, table: null, tableGroupName: 'orders_export' });
  });

  it('warns that connector-era lookups are deprecated', async () => {
    const ctx = contextFor(clientFor(sandbox));
    await getConnector.invoke(ctx, { id: 'ample_kitten' });
    expect(ctx.warnings).toEqual([expect.stringContaining('use getConnection')]);
  });

  it('rejects missing or empty ids before any call, naming the lookup', async () => {
    await expect(getConnection.invoke(contextFor(clientFor(sandbox)), {} as never)).rejects.toThrow(/^getConnection: invalid arguments/);
    await expect(getConnection.invoke(contextFor(clientFor(sandbox)), { id: '' })).rejects.toThrow(/must not be empty/);
  });
});
