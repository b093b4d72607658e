/**
 * Values the pipeline API refuses for their shape alone are refused by the input schema, at
 * their path, saying what is valid: a webhook event it does not post, a transformation schedule
 * without the field its type runs by, a log service or private link whose config lacks a key its
 * service needs. Each was valid to plumb and refused at apply. What the schema accepts, the
 * sandbox's API accepts too (every event, every service with the keys it needs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { externalLoggingInputs, LOG_SERVICE_NEEDS, LOG_SERVICES } from '../../../src/resources/pipeline/external-logging.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { PRIVATE_LINK_NEEDS, PRIVATE_LINK_SERVICES, privateLinkInputs } from '../../../src/resources/pipeline/private-link.js';
import { transformationInputs } from '../../../src/resources/pipeline/transformation.js';
import { WEBHOOK_EVENTS, webhookInputs } from '../../../src/resources/pipeline/webhook.js';
import { pipelineCall, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { ctxFor } from './harness.js';

/** The schema's issues as `path: message`. */
function issues(schema: z.ZodType, value: unknown): string[] {
  const parsed = z.safeParse(schema, value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox?.close());

describe('a webhook event', () => {
  it('the API does not post is refused at its position, naming the events it does', () => {
    const found = issues(webhookInputs, { url: 'https://hooks.acme.test/in', events: ['sync_start', 'sync_started'] });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^events\.1: must be one of "sync_start", "sync_end"/);
  });

  it('the schema accepts, the API accepts: every listed event in one webhook', async () => {
    expect(issues(webhookInputs, { url: 'https://hooks.acme.test/in', events: [...WEBHOOK_EVENTS] })).toEqual([]);
    const made = await pipelineCall(sandbox.url, 'POST', '/webhooks/account', { url: 'https://hooks.acme.test/in', events: [...WEBHOOK_EVENTS], active: false });
    expect(made.status).toBe(200);
  });
});

describe('a transformation schedule', () => {
  const base = { projectId: 'p', name: 'nightly', steps: [{ name: 'run', command: 'dbt run' }] };
  const cases: Array<[string, string]> = [
    ['INTEGRATED', 'schedule.connectionIds'],
    ['TIME_OF_DAY', 'schedule.timeOfDay'],
    ['INTERVAL', 'schedule.interval'],
    ['CRON', 'schedule.cron'],
  ];
  it.each(cases)('of type %s without the field it runs by is refused at %s', (scheduleType, path) => {
    const found = issues(transformationInputs, { ...base, schedule: { scheduleType } });
    expect(found).toEqual([expect.stringMatching(new RegExp(`^${path.replace('.', '\\.')}: scheduleType ${scheduleType} needs`))]);
  });
  it('with the field its type runs by is valid', () => {
    expect(issues(transformationInputs, { ...base, schedule: { scheduleType: 'TIME_OF_DAY', timeOfDay: '02:30' } })).toEqual([]);
  });
});

describe("a service's config", () => {
  it.each([...LOG_SERVICES])('of log service %s without the keys it needs is refused at config, naming them; with them, the API takes it', async (service) => {
    const needs = LOG_SERVICE_NEEDS[service];
    expect(issues(externalLoggingInputs, { groupId: 'g', service, config: {} })).toEqual([`config: service ${service} needs config ${needs.join(', ')} (it needs ${needs.join(', ')})`]);
    const config = Object.fromEntries(needs.map((k) => [k, 'x']));
    expect(issues(externalLoggingInputs, { groupId: 'g', service, config })).toEqual([]);
    const groupId = (await group.create(ctxFor(sandbox), { name: `logs_${service.toLowerCase()}` })).id;
    expect((await pipelineCall(sandbox.url, 'POST', '/external-logging', { group_id: groupId, service, enabled: true, config })).status).toBe(201);
  });

  it.each([...PRIVATE_LINK_SERVICES])('of private link service %s without the keys it needs is refused at config, naming them; with them, the API takes it', async (service) => {
    const needs = PRIVATE_LINK_NEEDS[service];
    const base = { name: `link_${service.toLowerCase()}`.slice(0, 23), region: service.endsWith('AZURE') ? 'AZURE_EASTUS2' : service.endsWith('GCP') ? 'GCP_US_EAST4' : 'AWS_US_EAST_1', service };
    expect(issues(privateLinkInputs, { ...base, config: { other: 'x' } })).toEqual([`config: service ${service} needs config ${needs.join(', ')} (it needs ${needs.join(', ')})`]);
    const config = Object.fromEntries(needs.map((k) => [k, 'x']));
    expect(issues(privateLinkInputs, { ...base, config })).toEqual([]);
    expect((await pipelineCall(sandbox.url, 'POST', '/private-links', { ...base, config })).status).toBe(201);
  });
});
