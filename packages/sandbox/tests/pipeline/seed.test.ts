/**
 * The sandbox's seed account is realistic and self-consistent: variety across every documented
 * enum, references that resolve, the API's pairing rules kept, and data that survives a restart.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineApi } from '../../src/pipeline/index.js';
import { startSandbox } from '../../src/server.js';
import { pipelineSandbox, rawGet, type PipelineSandbox } from '../support/pipeline.js';

let sandbox: PipelineSandbox;
const data: Record<string, any[]> = {};

async function items(path: string): Promise<any[]> {
  const res = await rawGet(sandbox, `${path}${path.includes('?') ? '&' : '?'}limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data.items;
}

beforeAll(async () => {
  sandbox = await pipelineSandbox();
  for (const [key, path] of Object.entries({
    groups: '/v1/groups',
    destinations: '/v1/destinations',
    connections: '/v1/connections',
    users: '/v1/users',
    teams: '/v1/teams',
    roles: '/v1/roles',
    links: '/v1/private-links',
    proxies: '/v1/proxy',
    agents: '/v1/hybrid-deployment-agents',
    packages: '/v1/transformations/package-metadata',
    types: '/v1/metadata/connector-types',
  })) {
    data[key] = await items(path);
  }
});
afterAll(async () => sandbox.close());

const distinct = (list: any[], field: string) => new Set(list.map((x) => x[field]));

describe('variety', () => {
  it('has several groups whose destinations differ in service and region', () => {
    expect(data.groups.length).toBeGreaterThanOrEqual(5);
    expect(data.destinations.map((d) => d.group_id).sort()).toEqual(data.groups.map((g) => g.id).sort());
    expect(distinct(data.destinations, 'service').size).toBe(data.destinations.length);
    expect(distinct(data.destinations, 'region').size).toBe(data.destinations.length);
    expect(distinct(data.destinations, 'setup_status')).toEqual(new Set(['connected', 'incomplete', 'broken']));
  });

  it('has 40+ connections covering every schedule, sensitivity, networking method and status', () => {
    const c = data.connections;
    expect(c.length).toBeGreaterThanOrEqual(40);
    expect(distinct(c, 'service').size).toBeGreaterThanOrEqual(20);
    expect([...distinct(c, 'sync_frequency')].sort((a, b) => a - b)).toEqual([1, 5, 15, 30, 60, 120, 180, 360, 480, 720, 1440]);
    expect(distinct(c, 'schedule_type')).toEqual(new Set(['auto', 'manual']));
    expect(distinct(c, 'data_delay_sensitivity')).toEqual(new Set(['LOW', 'NORMAL', 'HIGH', 'CUSTOM', 'SYNC_FREQUENCY']));
    for (const method of ['Directly', 'SshTunnel', 'ProxyAgent', 'PrivateLink']) expect(distinct(c, 'networking_method')).toContain(method);
    expect(new Set(c.map((x) => x.status.setup_state))).toEqual(new Set(['incomplete', 'connected', 'broken']));
    expect(new Set(c.map((x) => x.status.sync_state))).toEqual(new Set(['scheduled', 'syncing', 'paused', 'rescheduled']));
    expect(c.some((x) => x.paused)).toBe(true);
    expect(c.some((x) => x.hybrid_deployment_agent_id)).toBe(true);
    expect(c.some((x) => x.status.tasks.length > 0)).toBe(true);
    expect(c.some((x) => x.status.warnings.length > 0)).toBe(true);
  });

  it('has users, teams, predefined, deprecated and custom roles', () => {
    expect(data.users.length).toBeGreaterThanOrEqual(5);
    expect(data.users.some((u) => u.invited && !u.verified)).toBe(true);
    expect(data.teams.length).toBeGreaterThanOrEqual(3);
    expect(data.roles.some((r) => r.is_custom)).toBe(true);
    expect(data.roles.some((r) => !r.is_custom)).toBe(true);
    expect(data.roles.some((r) => r.is_deprecated && r.replacement_role_name)).toBe(true);
  });

  it('has private links in several states, proxy and hybrid agents, packages with variables', () => {
    expect(distinct(data.links, 'state').size).toBeGreaterThanOrEqual(4);
    expect(distinct(data.links, 'cloud_provider')).toEqual(new Set(['AWS', 'GCP', 'AZURE']));
    expect(data.links.every((l) => /^[A-Za-z_][A-Za-z0-9_]{0,22}$/.test(l.name))).toBe(true);
    expect(data.proxies.length).toBeGreaterThanOrEqual(3);
    expect(data.agents.length).toBeGreaterThanOrEqual(3);
    expect(data.packages.length).toBeGreaterThanOrEqual(3);
    expect(data.packages.every((p) => Object.keys(p.configurable_variables).length > 0)).toBe(true);
    expect(data.types.length).toBeGreaterThanOrEqual(distinct(data.connections, 'service').size);
  });
});

describe('consistency', () => {
  it('keeps the API pairing rules on every connection', () => {
    for (const c of data.connections) {
      const where = `connection ${c.id}`;
      expect(c.paused ? c.status.sync_state === 'paused' : c.status.sync_state !== 'paused', where).toBe(true);
      expect('daily_sync_time' in c ? c.sync_frequency === 1440 : true, where).toBe(true);
      expect(c.data_delay_sensitivity === 'CUSTOM' || c.data_delay_threshold === 0, where).toBe(true);
      expect(c.private_link_id !== null, where).toBe(c.networking_method === 'PrivateLink');
      expect(c.proxy_agent_id !== null, where).toBe(c.networking_method === 'ProxyAgent');
      expect(c.status.rescheduled_for !== null, where).toBe(c.status.sync_state === 'rescheduled');
    }
  });

  it('points only at objects that exist', () => {
    const ids = (list: any[]) => new Set(list.map((x) => x.id));
    const groups = ids(data.groups);
    const links = ids(data.links);
    const proxies = ids(data.proxies);
    const agents = ids(data.agents);
    const users = ids(data.users);
    const types = ids(data.types);
    for (const c of [...data.connections, ...data.destinations]) {
      expect(groups.has(c.group_id)).toBe(true);
      if (c.private_link_id) expect(links.has(c.private_link_id)).toBe(true);
      if (c.proxy_agent_id) expect(proxies.has(c.proxy_agent_id)).toBe(true);
      if (c.hybrid_deployment_agent_id) expect(agents.has(c.hybrid_deployment_agent_id)).toBe(true);
    }
    for (const c of data.connections) {
      if (c.connected_by) expect(users.has(c.connected_by)).toBe(true);
      expect(types.has(c.service), c.service).toBe(true);
    }
  });

  it('keeps each connection schema unique within its group', () => {
    const keys = data.connections.map((c) => `${c.group_id}/${c.schema}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('persistence', () => {
  it('keeps the account in the data folder across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-pipeline-'));
    const first = await startSandbox({ provisioningMs: 0, dataDir: dir, apis: [pipelineApi] });
    const auth = { authorization: `Basic ${Buffer.from('sandbox-key:sandbox-secret').toString('base64')}` };
    const before = await (await fetch(`${first.url}/pipeline/v1/groups`, { headers: auth })).json();
    await first.close();
    const second = await startSandbox({ provisioningMs: 0, dataDir: dir, apis: [pipelineApi] });
    const after = await (await fetch(`${second.url}/pipeline/v1/groups`, { headers: auth })).json();
    await second.close();
    expect(after).toEqual(before);
  });
});
