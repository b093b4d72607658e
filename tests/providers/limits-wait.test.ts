/**
 * Against a sandbox enforcing a limit (small windows here, so the tests take seconds), plumb's
 * clients are refused, wait as the API tells them, and get every call through: the interconnect
 * CLI applies and plans, the pipeline and cloud clients list.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudProvider } from '../../src/providers/cloud/index.js';
import { limiterFor } from '../../src/providers/limiter.js';
import { pipelineProvider } from '../../src/providers/pipeline/index.js';
import { startSandbox, type LimitRule, type Sandbox } from '@plumb/sandbox';
import { plumb, workdir, writeManifest } from '../support/cli.js';

const silent = pino({ level: 'silent' });

/** A small window for tests: the limit shows within seconds, never minutes. */
function smallWindow(provider: string, max: number, windowMs: number, match?: string): LimitRule {
  return { provider, name: `${max} per ${windowMs} ms`, max, windowMs, per: 'account', source: 'test', ...(match ? { match: new RegExp(match) } : {}) };
}

async function calls(sandbox: Sandbox, provider: string): Promise<Array<{ method: string; path: string; status: number }>> {
  return (await (await fetch(`${sandbox.url}/_sandbox/calls?provider=${provider}`)).json()) as never;
}

const PORTS = `name: limited
resources:
${[0, 1, 2, 3]
  .map(
    (i) => `  port${i}:
    type: interconnect:index/port:Port
    properties: { productName: limited-${i}, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }`,
  )
  .join('\n')}
`;

describe('interconnect: plumb waits out the limit and applies', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0, limits: [smallWindow('interconnect', 3, 1000)] });
  });
  afterAll(() => sandbox.close());

  it('applies four ports and plans no change, though calls were refused with 429 on the way; each port is bought once', async () => {
    const dir = workdir('plumb-limits-');
    writeManifest(dir, 'plumb.yaml', PORTS);
    const env = { PLUMB_SANDBOX_URL: sandbox.url };
    const apply = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const plan = await plumb(['plan'], { cwd: dir, env });
    expect(plan.stdout).toContain('No changes');
    const log = await calls(sandbox, 'interconnect');
    expect(log.some((c) => c.status === 429)).toBe(true);
    const { products } = sandbox.world.data<{ products: Record<string, { productName: string }> }>('interconnect', () => ({ products: {} }));
    const bought = Object.values(products).map((p) => p.productName);
    expect(bought.sort()).toEqual(['limited-0', 'limited-1', 'limited-2', 'limited-3']);
  });
});

describe('pipeline: the client waits out Retry-After', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0, limits: [smallWindow('pipeline', 8, 1000)] });
  });
  afterAll(() => sandbox.close());

  it('gets 16 lists through a limit of 8 a second, refused with 429 on the way', async () => {
    const client = await pipelineProvider.connect(pipelineProvider.settings.parse({}), { sandboxUrl: async () => sandbox.url, log: silent, env: {} });
    const answers = await Promise.all(Array.from({ length: 16 }, () => client.list('/groups')));
    expect(answers.every((groups) => groups.length > 0)).toBe(true);
    const log = await calls(sandbox, 'pipeline');
    expect(log.filter((c) => c.status === 429).length).toBeGreaterThan(0);
    expect(log.filter((c) => c.status === 200)).toHaveLength(16);
  });
});

describe('cloud: the client backs off on RetCode 153', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0, limits: [smallWindow('cloud', 3, 500, '^DescribeNapServiceInfo$')] });
  });
  afterAll(() => sandbox.close());

  it('gets 8 describes through a limit of 3 per half second', async () => {
    const settings = cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox', maxRetries: 8 });
    const client = await cloudProvider.connect(settings, { sandboxUrl: async () => sandbox.url, log: silent, env: {} });
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await client.call('DescribeNapServiceInfo', { NapType: 1 }, { project: false }));
    expect(answers.every((a) => a.RetCode === 0)).toBe(true);
    // Refusals are answered HTTP 200, as the API does: more calls were received than made.
    expect((await calls(sandbox, 'cloud')).length).toBeGreaterThan(8);
    expect(client.limiter.state().requestsPerSecond).toBeLessThan(Infinity);
  });
});

describe('PLUMB_SANDBOX_LIMITS=real', () => {
  it('makes a sandbox client keep to the real API defaults, as the sandbox then enforces the real limits', () => {
    const defaults = { maxConcurrency: 10, requestsPerSecond: 1.6 };
    expect(limiterFor({}, defaults, true, {}).state()).toMatchObject({ maxConcurrency: Infinity, requestsPerSecond: Infinity });
    expect(limiterFor({}, defaults, true, { PLUMB_SANDBOX_LIMITS: 'real' }).state()).toMatchObject(defaults);
  });
});
