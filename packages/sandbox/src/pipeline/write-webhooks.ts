/**
 * The write side of webhooks (REST v1): an account webhook is created with
 * `POST /webhooks/account`, a group's with `POST /webhooks/group/{groupId}`, both answering 200
 * (not 201, unlike every other create). `PATCH` changes url, events, active and secret; the
 * secret always reads back masked. `POST /webhooks/{id}/test {event}` sends one event to the
 * url on behalf of a dummy connection and reports the receiver's answer.
 */
import type { SandboxRequest, SandboxResponse } from '../types.js';
import { notFound, ok } from './http.js';
import type { PipelineData, Webhook } from './model.js';
import { route, type Route } from './route.js';
import { bodyOf, deleted, newId, problem, timestamp } from './write-common.js';
import { webhookView } from './views.js';

/** The events a webhook may subscribe to. */
export const WEBHOOK_EVENTS = [
  'sync_start',
  'sync_end',
  'status',
  'connection_successful',
  'connection_failure',
  'create_connector',
  'pause_connector',
  'resume_connector',
  'edit_connector',
  'delete_connector',
  'force_update_connector',
  'resync_connector',
  'resync_table',
  'dbt_run_start',
  'dbt_run_succeeded',
  'dbt_run_failed',
  'transformation_run_start',
  'transformation_run_succeeded',
  'transformation_run_failed',
];

/** What is wrong with a webhook body; `creating` makes url and events required. */
function webhookProblems(v: Record<string, unknown>, creating: boolean): string[] {
  const problems: string[] = [];
  if (v.url === undefined ? creating : typeof v.url !== 'string' || !/^https?:\/\/[^\s/]+/.test(v.url)) problems.push("Field 'url' is required: an http(s) URL.");
  if (v.events === undefined ? creating : !Array.isArray(v.events) || v.events.length === 0) problems.push("Field 'events' is required: a non-empty list of events.");
  else if (Array.isArray(v.events)) {
    const unknown = v.events.filter((e) => !WEBHOOK_EVENTS.includes(String(e)));
    if (unknown.length) problems.push(`Unknown events ${unknown.map((e) => `'${String(e)}'`).join(', ')}: expected some of ${WEBHOOK_EVENTS.join(', ')}.`);
  }
  if (v.active !== undefined && typeof v.active !== 'boolean') problems.push("Field 'active' must be true or false.");
  if (v.secret !== undefined && v.secret !== null && typeof v.secret !== 'string') problems.push("Field 'secret' must be text.");
  return problems;
}

function createWebhook(req: SandboxRequest, groupId: string | null, data: PipelineData, now: number): SandboxResponse {
  if (groupId !== null && !data.groups.some((g) => g.id === groupId)) return notFound('NotFound_Group', 'Group', groupId);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems = webhookProblems(v, true);
  if (problems.length) return problem(problems.join(' '));
  const webhook: Webhook = {
    id: newId(data),
    type: groupId === null ? 'account' : 'group',
    group_id: groupId,
    url: String(v.url),
    events: [...new Set((v.events as unknown[]).map(String))],
    active: v.active === true,
    secret: typeof v.secret === 'string' ? v.secret : '',
    created_at: timestamp(now),
    created_by: data.users.find((u) => u.role === 'Account Administrator')?.id ?? '',
  };
  data.webhooks.push(webhook);
  return ok(webhookView(webhook), `${groupId === null ? 'Account' : 'Group'} webhook has been created`);
}

function updateWebhook(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const webhook = data.webhooks.find((w) => w.id === id);
  if (!webhook) return notFound('NotFound_Webhook', 'Webhook', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems = webhookProblems(v, false);
  if (problems.length) return problem(problems.join(' '));
  if (v.url !== undefined) webhook.url = String(v.url);
  if (v.events !== undefined) webhook.events = [...new Set((v.events as unknown[]).map(String))];
  if (v.active !== undefined) webhook.active = v.active as boolean;
  if (v.secret !== undefined) webhook.secret = (v.secret as string | null) ?? '';
  return ok(webhookView(webhook), 'Webhook has been updated');
}

function deleteWebhook(id: string, data: PipelineData): SandboxResponse {
  if (!data.webhooks.some((w) => w.id === id)) return notFound('NotFound_Webhook', 'Webhook', id);
  data.webhooks = data.webhooks.filter((w) => w.id !== id);
  return deleted(`Webhook with id '${id}' has been deleted`);
}

function testWebhook(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const webhook = data.webhooks.find((w) => w.id === id);
  if (!webhook) return notFound('NotFound_Webhook', 'Webhook', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const event = body.value.event;
  if (typeof event !== 'string' || !WEBHOOK_EVENTS.includes(event)) return problem(`Field 'event' is required: one of ${WEBHOOK_EVENTS.join(', ')}.`);
  // Nothing is sent from the sandbox: the receiver is taken to answer 200 to every test.
  return ok({ succeed: true, status: 200, message: `Event '${event}' for connection '_connection_1' was delivered to ${webhook.url}` }, 'Webhook test has been completed');
}

/** The webhook write routes. */
export const webhookRoutes: Route[] = [
  route('POST', '/v1/webhooks/account', (req, _, d, w) => createWebhook(req, null, d, w.now())),
  route('POST', '/v1/webhooks/group/:groupId', (req, p, d, w) => createWebhook(req, p.groupId, d, w.now())),
  route('PATCH', '/v1/webhooks/:id', (req, p, d) => updateWebhook(req, p.id, d)),
  route('DELETE', '/v1/webhooks/:id', (_, p, d) => deleteWebhook(p.id, d)),
  route('POST', '/v1/webhooks/:id/test', (req, p, d) => testWebhook(req, p.id, d)),
];
