/**
 * The sandbox's write API for users, teams, memberships and webhooks, over raw HTTP as the
 * vendor documents it: 201 creates (200 for webhooks), the `{code, message, data}` envelope,
 * team users named by `user_id` and everything else by `id`, roles checked against their scope,
 * secrets read back masked, and the lookups' routes answering with what the writes made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineCall, pipelineSandbox, type PipelineSandbox } from '../support/pipeline.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

const call = (method: string, path: string, body?: unknown) => pipelineCall(sandbox.url, method, path, body);

describe('users', () => {
  it('an invite is 201 and unverified; PATCH changes names and clears the phone with null; the email cannot change; DELETE answers a message', async () => {
    const made = await call('POST', '/users', { email: 'new.person@acme.test', given_name: 'New', family_name: 'Person', phone: '+1 415 555 0101', role: 'Account Analyst' });
    expect(made).toMatchObject({ status: 201, body: { code: 'Success', data: { email: 'new.person@acme.test', invited: true, verified: false, role: 'Account Analyst' } } });
    const id = made.body.data.id as string;
    expect((await call('POST', '/users', { email: 'NEW.person@acme.test', given_name: 'A', family_name: 'B' })).status).toBe(409);
    const patched = await call('PATCH', `/users/${id}`, { family_name: 'Renamed', phone: null });
    expect(patched.body.data).toMatchObject({ family_name: 'Renamed', phone: null });
    expect((await call('PATCH', `/users/${id}`, { email: 'other@acme.test' })).body).toMatchObject({ code: 'InvalidInput' });
    expect((await call('GET', '/users')).body.data.items.map((u: { id: string }) => u.id)).toContain(id);
    const gone = await call('DELETE', `/users/${id}`);
    expect(gone).toMatchObject({ status: 200, body: { code: 'Success' } });
    expect(gone.body.data).toBeUndefined();
    expect((await call('GET', `/users/${id}`)).body.code).toBe('NotFound_User');
  });

  it('an invite names every problem at once; a role of another scope is refused', async () => {
    const bad = await call('POST', '/users', { email: 'nope', role: 'Team Member' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("Field 'email'");
    expect(bad.body.message).toContain("Field 'given_name'");
    expect(bad.body.message).toContain("Role 'Team Member' cannot be granted at the ACCOUNT level.");
  });
});

describe('teams and memberships', () => {
  it('a team is made, its users (by user_id), groups and connections (by id) are added, re-roled and removed, and the team lists them', async () => {
    const team = (await call('POST', '/teams', { name: 'Ops Squad', description: 'on call', role: 'Account Reviewer' })).body.data;
    expect(team).toMatchObject({ name: 'Ops Squad', role: 'Account Reviewer' });
    expect((await call('POST', '/teams', { name: 'ops squad', role: 'Account Reviewer' })).status).toBe(409);
    const userId = (await call('POST', '/users', { email: 'squad@acme.test', given_name: 'S', family_name: 'Q' })).body.data.id;
    const member = await call('POST', `/teams/${team.id}/users`, { user_id: userId, role: 'Team Member' });
    expect(member).toMatchObject({ status: 201, body: { data: { user_id: userId, role: 'Team Member' } } });
    expect((await call('POST', `/teams/${team.id}/users`, { user_id: userId, role: 'Team Member' })).status).toBe(409);
    expect((await call('PATCH', `/teams/${team.id}/users/${userId}`, { role: 'Team Manager' })).status).toBe(200);
    expect((await call('GET', `/teams/${team.id}/users/${userId}`)).body.data).toMatchObject({ user_id: userId, role: 'Team Manager' });
    expect((await call('GET', `/teams/${team.id}/users`)).body.data.items).toEqual([expect.objectContaining({ user_id: userId, role: 'Team Manager' })]);

    const groupId = (await call('POST', '/groups', { name: 'squad_group' })).body.data.id;
    expect((await call('POST', `/teams/${team.id}/groups`, { id: groupId, role: 'Connector Reviewer' })).body.message).toContain('cannot be granted at the DESTINATION level');
    expect((await call('POST', `/teams/${team.id}/groups`, { id: groupId, role: 'Destination Analyst' })).body.data).toMatchObject({ id: groupId });
    expect((await call('POST', `/teams/${team.id}/groups`, { id: 'no_group', role: 'Destination Analyst' })).body.code).toBe('NotFound_Group');
    expect((await call('DELETE', `/teams/${team.id}/users/${userId}`)).status).toBe(200);
    expect((await call('GET', `/teams/${team.id}/users/${userId}`)).status).toBe(404);
    expect((await call('DELETE', `/teams/${team.id}`)).status).toBe(200);
    expect((await call('GET', `/teams/${team.id}/groups`)).body.code).toBe('NotFound_Team');
  });

  it("a user's groups are what the group's users list shows", async () => {
    const userId = (await call('POST', '/users', { email: 'grouped@acme.test', given_name: 'G', family_name: 'U' })).body.data.id;
    const groupId = (await call('POST', '/groups', { name: 'grouped_users' })).body.data.id;
    expect((await call('POST', `/users/${userId}/groups`, { id: groupId, role: 'Destination Reviewer' })).status).toBe(201);
    expect((await call('GET', `/users/${userId}/groups`)).body.data.items).toEqual([expect.objectContaining({ id: groupId, role: 'Destination Reviewer' })]);
    expect((await call('GET', `/groups/${groupId}/users`)).body.data.items).toEqual([expect.objectContaining({ id: userId, role: 'Destination Reviewer' })]);
    expect((await call('GET', '/users/ghost_user/groups')).body.code).toBe('NotFound_User');
  });
});

describe('memberships of what is deleted', () => {
  it('a deleted connection or group leaves no membership behind in teams or users', async () => {
    const teamId = (await call('POST', '/teams', { name: 'Leftovers', role: 'Account Reviewer' })).body.data.id;
    const userId = (await call('POST', '/users', { email: 'leftover@acme.test', given_name: 'L', family_name: 'O' })).body.data.id;
    const groupId = (await call('POST', '/groups', { name: 'leftover_group' })).body.data.id;
    const connectionId = (await call('POST', '/connections', { group_id: groupId, service: 'stripe', config: { schema: 'leftover_stripe' } })).body.data.id;
    await call('POST', `/teams/${teamId}/connections`, { id: connectionId, role: 'Connector Reviewer' });
    await call('POST', `/users/${userId}/connections`, { id: connectionId, role: 'Connector Reviewer' });
    await call('POST', `/teams/${teamId}/groups`, { id: groupId, role: 'Destination Reviewer' });
    await call('POST', `/users/${userId}/groups`, { id: groupId, role: 'Destination Reviewer' });
    expect((await call('DELETE', `/connections/${connectionId}`)).status).toBe(200);
    expect((await call('DELETE', `/groups/${groupId}`)).status).toBe(200);
    for (const path of [`/teams/${teamId}/connections`, `/users/${userId}/connections`, `/teams/${teamId}/groups`, `/users/${userId}/groups`]) {
      expect((await call('GET', path)).body.data.items, path).toEqual([]);
    }
  });
});

describe('webhooks', () => {
  it('a group webhook is created with 200, its secret masked; PATCH changes events; test reports delivery; a missing group is 404', async () => {
    const groupId = (await call('POST', '/groups', { name: 'hooked' })).body.data.id;
    const made = await call('POST', `/webhooks/group/${groupId}`, { url: 'https://hooks.acme.test/x', events: ['sync_start'], active: true, secret: 'whsec-1' });
    expect(made).toMatchObject({ status: 200, body: { code: 'Success', data: { type: 'group', group_id: groupId, secret: '******' } } });
    const id = made.body.data.id as string;
    expect((await call('PATCH', `/webhooks/${id}`, { events: ['sync_end', 'status'] })).body.data.events).toEqual(['sync_end', 'status']);
    expect((await call('POST', `/webhooks/${id}/test`, { event: 'sync_start' })).body.data).toMatchObject({ succeed: true, status: 200 });
    expect((await call('POST', '/webhooks/group/no_group', { url: 'https://x.test', events: ['sync_start'] })).body.code).toBe('NotFound_Group');
    expect((await call('POST', '/webhooks/account', { url: 'ftp://x', events: ['nonsense'] })).body.message).toMatch(/'url'.*Unknown events 'nonsense'/);
    expect(JSON.stringify((await call('GET', '/webhooks')).body)).not.toContain('whsec-1');
    expect((await call('DELETE', `/webhooks/${id}`)).status).toBe(200);
    expect((await call('GET', `/webhooks/${id}`)).body.code).toBe('NotFound_Webhook');
  });
});
