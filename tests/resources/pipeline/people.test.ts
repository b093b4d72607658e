/**
 * Users, teams, memberships and webhooks against the sandbox, beyond the lifecycle: a phone taken
 * out of the manifest is cleared, events reordered by the API are no change, an account webhook
 * is made on its own path, a webhook PATCH sends only what changed, a membership state already
 * records is not found again as a lost create, a malformed pair is refused naming the format,
 * and the lookups answer with what the types made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTeamUserMemberships } from '../../../src/lookups/pipeline/get-team-user-memberships.js';
import { getUser } from '../../../src/lookups/pipeline/get-user.js';
import { getWebhooks } from '../../../src/lookups/pipeline/get-webhooks.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { team } from '../../../src/resources/pipeline/team.js';
import { teamUserMembership } from '../../../src/resources/pipeline/team-user-membership.js';
import { user } from '../../../src/resources/pipeline/user.js';
import { webhook } from '../../../src/resources/pipeline/webhook.js';
import { clientFor, contextFor, pipelineSandbox, TEST_KEY, TEST_SECRET, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { ctxFor } from './harness.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

const auth = `Basic ${Buffer.from(`${TEST_KEY}:${TEST_SECRET}`).toString('base64')}`;

/** A change made through the API, as the web UI makes it. */
async function patch(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${sandbox.url}/pipeline/v1${path}`, { method: 'PATCH', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

/** The pipeline calls the sandbox has answered since the last reset, as `METHOD path`. */
async function calls(): Promise<string[]> {
  const all = (await (await fetch(`${sandbox.url}/_sandbox/calls?provider=pipeline`)).json()) as Array<{ method: string; path: string }>;
  return all.map((c) => `${c.method} ${c.path}`);
}

describe('users', () => {
  it('a phone taken out of the manifest is cleared; the role left out is the API’s', async () => {
    const ctx = ctxFor(sandbox);
    const inputs = { email: 'phone.owner@acme.test', givenName: 'Pho', familyName: 'Ne', phone: '+44 20 7946 0000' };
    const made = await user.create(ctx, inputs);
    expect(made.outputs).toMatchObject({ phone: '+44 20 7946 0000', role: 'Account Reviewer' });
    const updated = await user.update(ctx, made.id, { inputs, outputs: made.outputs }, { ...inputs, phone: undefined });
    expect(updated.phone).toBeUndefined();
    expect((await user.read(ctx, made.id))?.phone).toBeUndefined();
    expect(await getUser.invoke(contextFor(clientFor(sandbox)), { id: made.id })).toMatchObject({ id: made.id, email: 'phone.owner@acme.test' });
  });
});

describe('webhooks', () => {
  it('events the API reorders read as declared; a PATCH sends only the changed fields, the secret revealed to the API alone', async () => {
    const ctx = ctxFor(sandbox);
    const groupId = (await group.create(ctx, { name: 'hook_tests' })).id;
    const inputs = { groupId, url: 'https://hooks.acme.test/a', events: ['sync_start', 'sync_end'], secret: 'whsec-a' };
    const made = await webhook.create(ctx, inputs);
    await patch(`/webhooks/${made.id}`, { events: ['sync_end', 'sync_start'] });
    expect((await webhook.read(ctx, made.id, { inputs, outputs: made.outputs }))?.events).toEqual(['sync_start', 'sync_end']);

    await patch(`/webhooks/${made.id}`, { events: ['sync_start', 'sync_end'] });
    await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
    await webhook.update(ctx, made.id, { inputs, outputs: made.outputs }, { ...inputs, events: ['sync_end', 'sync_start'], secret: 'whsec-b' });
    expect(await calls()).toEqual([`PATCH /v1/webhooks/${made.id}`]);
    // The events, the same set in another order, were not sent: the API keeps its own order.
    const listed = (await getWebhooks.invoke(contextFor(clientFor(sandbox)), {})) as { webhooks: Array<{ id: string; secret: string | null }> };
    expect(listed.webhooks.find((w) => w.id === made.id)).toMatchObject({ events: ['sync_start', 'sync_end'], secret: '******' });
  });
});

describe('account webhooks', () => {
  it('a webhook without a group is the account’s, made on its own path and found again after a lost answer by its url', async () => {
    const ctx = ctxFor(sandbox);
    await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
    const inputs = { url: 'https://hooks.acme.test/account', events: ['connection_failure'] };
    const made = await webhook.create(ctx, inputs);
    expect(await calls()).toEqual(['POST /v1/webhooks/account']);
    expect(made.outputs).toMatchObject({ type: 'account', active: true });
    expect(made.outputs.groupId).toBeUndefined();
    expect((await webhook.findOwned!(ctx, inputs, { earliestMs: Date.now() - 60_000, recorded: () => false }))?.id).toBe(made.id);
    await webhook.delete(ctx, made.id, { inputs, outputs: made.outputs });
    expect(await webhook.read(ctx, made.id)).toBeUndefined();
  });
});

describe('memberships', () => {
  it('a membership state records is not a lost create; a malformed pair names the format; the lookup lists it', async () => {
    const ctx = ctxFor(sandbox);
    const teamId = (await team.create(ctx, { name: 'Membership Tests', role: 'Account Reviewer' })).id;
    const userId = (await user.create(ctx, { email: 'member@acme.test', givenName: 'Mem', familyName: 'Ber' })).id;
    const inputs = { teamId, userId, role: 'Team Member' };
    const made = await teamUserMembership.create(ctx, inputs);
    expect(made.id).toBe(`${teamId}:${userId}`);
    expect(await teamUserMembership.findOwned!(ctx, inputs, { earliestMs: 0, recorded: (id) => id === made.id })).toBeUndefined();
    expect((await teamUserMembership.findOwned!(ctx, inputs, { earliestMs: 0, recorded: () => false }))?.id).toBe(made.id);
    expect(() => teamUserMembership.importId!.parse(teamId)).toThrow(`the format is <team_id>:<user_id>, e.g. witty_heron:nimble_heron`);
    const listed = (await getTeamUserMemberships.invoke(contextFor(clientFor(sandbox)), { teamId })) as { users: Array<{ userId: string; role: string }> };
    expect(listed.users).toEqual([expect.objectContaining({ userId, role: 'Team Member' })]);
  });
});
