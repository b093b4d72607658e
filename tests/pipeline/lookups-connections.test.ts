/**
 * Connection and connector lookups against the sandbox: the conformance suite, plus the rules
 * that give their fields the API's meaning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnection } from '../../src/lookups/pipeline/get-connection.js';
import { getConnectionCertificates } from '../../src/lookups/pipeline/get-connection-certificates.js';
import { getConnectionFingerprints } from '../../src/lookups/pipeline/get-connection-fingerprints.js';
import { getConnections } from '../../src/lookups/pipeline/get-connections.js';
import { getConnector } from '../../src/lookups/pipeline/get-connector.js';
import { getConnectorCertificates } from '../../src/lookups/pipeline/get-connector-certificates.js';
import { getConnectorFingerprints } from '../../src/lookups/pipeline/get-connector-fingerprints.js';
import { getConnectors } from '../../src/lookups/pipeline/get-connectors.js';
import { getGroupConnections } from '../../src/lookups/pipeline/get-group-connections.js';
import { describeLookups } from './conformance.js';
import { clientFor, contextFor, pipelineSandbox, type PipelineSandbox } from './helpers.js';
import type { Sender } from '../../src/providers/http.js';

const missing = (lookup: string, id = 'ghost_conn') => ({ args: { id }, message: `${lookup}: connection "${id}" not found` });

describeLookups('connection lookups', [
  {
    fn: getConnection,
    args: { id: 'velvet_fox' },
    check: (r) => {
      expect(r).toMatchObject({ id: 'velvet_fox', groupId: 'decent_dropsy', service: 'google_sheets', serviceVersion: '1', name: 'sheets.budget' });
      expect(r).toMatchObject({ syncFrequency: 1440, dailySyncTime: '03:00', paused: true, networkingMethod: 'Directly', privateLinkId: null });
      expect(r.destinationSchema).toEqual({ name: 'sheets', prefix: null, table: 'budget', tableGroupName: null });
      expect(r.status).toMatchObject({ setupState: 'incomplete', syncState: 'paused', isHistoricalSync: true, tasks: [{ code: 'reconnect', message: 'Reconnect' }] });
    },
    notFound: missing('getConnection'),
  },
  {
    fn: getConnector,
    args: { id: 'ample_kitten' },
    check: (r) => {
      expect(r).toMatchObject({ id: 'ample_kitten', service: 'postgres', serviceVersion: '3', networkingMethod: 'SshTunnel', syncFrequency: 15 });
      expect(r.destinationSchema).toEqual({ name: null, prefix: 'pg_orders', table: null, tableGroupName: null });
      expect(r.config).toMatchObject({ host: 'orders-db.internal.acme-data.io', port: 5432, password: '******', replicationSlot: 'fivetran_orders', tunnelPort: 22 });
    },
    notFound: missing('getConnector'),
  },
  {
    fn: getConnections,
    args: { groupId: 'decent_dropsy' },
    pagedPath: '/v1/connections',
    notFound: { args: { groupId: 'ghost_group' }, message: 'getConnections: group "ghost_group" not found' },
    check: (r) => {
      expect(r.id).toBe('0');
      expect(r.groupId).toBe('decent_dropsy');
      expect(r.connections).toHaveLength(13);
      expect(r.connections.every((c: any) => c.groupId === 'decent_dropsy')).toBe(true);
      expect(r.connections[0]).not.toHaveProperty('status');
    },
  },
  {
    fn: getConnectors,
    args: {},
    pagedPath: '/v1/connections',
    check: (r) => {
      expect(r.connectors.length).toBeGreaterThanOrEqual(40);
      expect(new Set(r.connectors.map((c: any) => c.groupId)).size).toBe(6);
    },
  },
  {
    fn: getGroupConnections,
    args: { id: 'sharp_heron' },
    pagedPath: '/v1/groups/sharp_heron/connections',
    check: (r) => {
      expect(r.id).toBe('sharp_heron');
      expect(r.connections.map((c: any) => c.id)).toContain('lanky_stork');
      const stork = r.connections.find((c: any) => c.id === 'lanky_stork');
      expect(stork).toMatchObject({ paused: true, pauseAfterTrial: true, status: { syncState: 'paused' } });
    },
    notFound: { args: { id: 'ghost_group' }, message: 'getGroupConnections: group "ghost_group" not found' },
  },
  {
    fn: getConnectionCertificates,
    args: { id: 'ample_kitten' },
    pagedPath: '/v1/connections/ample_kitten/certificates',
    check: (r) => {
      expect(r.id).toBe('ample_kitten');
      expect(r.certificates).toHaveLength(3);
      expect(r.certificates[0]).toMatchObject({ name: 'CN=Acme Internal Root CA', type: 'TLS', validatedBy: 'wise_owl' });
      expect(r.certificates[0].publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    },
    notFound: missing('getConnectionCertificates'),
  },
  {
    fn: getConnectionFingerprints,
    args: { id: 'ample_kitten' },
    pagedPath: '/v1/connections/ample_kitten/fingerprints',
    check: (r) => {
      expect(r.fingerprints).toHaveLength(3);
      expect(r.fingerprints[0].publicKey).toMatch(/^ssh-rsa /);
    },
    notFound: missing('getConnectionFingerprints'),
  },
  {
    fn: getConnectorCertificates,
    args: { id: 'ample_kitten' },
    pagedPath: '/v1/connections/ample_kitten/certificates',
    check: (r) => {
      expect(r).toMatchObject({ id: 'ample_kitten', connectorId: 'ample_kitten' });
      expect(r.certificates).toHaveLength(3);
    },
    notFound: missing('getConnectorCertificates'),
  },
  {
    fn: getConnectorFingerprints,
    args: { id: 'ample_kitten' },
    pagedPath: '/v1/connections/ample_kitten/fingerprints',
    check: (r) => {
      expect(r).toMatchObject({ id: 'ample_kitten', connectorId: 'ample_kitten' });
      expect(r.fingerprints).toHaveLength(3);
    },
    notFound: missing('getConnectorFingerprints'),
  },
]);

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

  it('reads a connection that leaves optional fields out, as the vendor\'s own fixture of connection details does (no schedule_type)', async () => {
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
