import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRemote, UserError } from '../../../src/kernel/errors.js';
import { antiDdosAllowedDomain, parseAllowedDomainId } from '../../../src/resources/cloud/anti-ddos-allowed-domain.js';
import { antiDdosInstance } from '../../../src/resources/cloud/anti-ddos-instance.js';
import { allowedDomainProblem, registrableDomain } from '../../../src/resources/cloud/domain-name.js';
import { countActions, startHarness, type Harness } from '../../support/cloud-harness.js';

describe('the allowed-domain rule', () => {
  it.each([
    ['a registrable domain', 'example.com', undefined],
    ['a registrable domain under a second-level suffix', 'example.com.cn', undefined],
    ['a punycode domain', 'xn--fiqs8s.cn', undefined],
    ['a host is rejected in favour of its parent', 'api.example.com', 'use example.com'],
    ['a deep host names the registrable parent', 'a.b.shop.example.co.uk', 'use example.co.uk'],
    ['a host under com.cn names the parent', 'www.example.com.cn', 'use example.com.cn'],
    ['a public suffix alone', 'com.cn', 'is a public suffix'],
    ['a single label', 'localhost', 'not a valid domain name'],
    ['upper case', 'Example.com', 'lower case: example.com'],
    ['a wildcard', '*.example.com', 'allow the parent domain example.com'],
    ['a URL', 'https://example.com/', 'without scheme or path'],
    ['a trailing dot', 'example.com.', 'must not end with a dot'],
    ['a label starting with a dash', '-bad.com', 'not a valid domain name'],
  ])('%s: %s', (_name, domain, problem) => {
    const found = allowedDomainProblem(domain);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it('finds registrable domains', () => {
    expect(registrableDomain('api.ucloud.cn')).toBe('ucloud.cn');
    expect(registrableDomain('cn')).toBeUndefined();
  });

  it('puts the problem at the domain field of the inputs', () => {
    const r = z.safeParse(antiDdosAllowedDomain.inputs, { instanceId: 'usecure_ghp-1', domain: 'api.example.com' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]).toMatchObject({ path: ['domain'] });
    expect(r.error!.issues[0].message).toContain('use example.com');
  });
});

describe('allowed-domain ids', () => {
  it.each([
    ['usecure_ghp-abc/example.com', { instanceId: 'usecure_ghp-abc', domain: 'example.com' }],
    ['usecure_ghp-abc/example.com.cn', { instanceId: 'usecure_ghp-abc', domain: 'example.com.cn' }],
  ])('parses %s', (id, expected) => {
    expect(parseAllowedDomainId(id)).toEqual(expected);
    expect(antiDdosAllowedDomain.importId!.parse(id)).toBe(id);
  });

  it.each([
    ['no slash', 'usecure_ghp-abc'],
    ['an empty instance', '/example.com'],
    ['an empty domain', 'usecure_ghp-abc/'],
    ['a host instead of the domain', 'usecure_ghp-abc/www.example.com'],
    ['a path after the domain', 'usecure_ghp-abc/example.com/x'],
  ])('rejects %s naming the format', (_name, id) => {
    try {
      antiDdosAllowedDomain.importId!.parse(id);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UserError);
      expect(`${(err as UserError).message} ${(err as UserError).hint}`).toContain('<instance_id>/<domain>');
    }
  });
});

describe('AntiDdosAllowedDomain lifecycle against the sandbox', () => {
  let h: Harness;
  let instanceId: string;
  beforeAll(async () => {
    h = await startHarness({ provisioningMs: 300 });
    const created = await antiDdosInstance.create(
      h.resourceCtx('shield'),
      z.parse(antiDdosInstance.inputs, { area: 'EastChina', dataCenter: 'Taizhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 30 }),
    );
    instanceId = created.id;
  });
  afterAll(() => h.close());

  it('creates (waiting from Adding to Success), reads, updates the comment, replaces, deletes and deletes again', async () => {
    const ctx = h.resourceCtx('allowed');
    const inputs = z.parse(antiDdosAllowedDomain.inputs, { instanceId, domain: 'example.com', comment: 'main site' });
    h.progress.length = 0;
    const created = await antiDdosAllowedDomain.create(ctx, inputs);
    expect(created.id).toBe(`${instanceId}/example.com`);
    expect(created.outputs).toMatchObject({ antiDdosAllowedDomainId: created.id, instanceId, domain: 'example.com', comment: 'main site', status: 'Success' });
    expect(h.progress).toContain('Adding');
    expect(h.recorded).toContain(created.id);

    expect(await antiDdosAllowedDomain.read(ctx, created.id)).toEqual(created.outputs);

    await h.clearCalls();
    const updated = await antiDdosAllowedDomain.update(ctx, created.id, { inputs, outputs: created.outputs }, { ...inputs, comment: 'renamed' });
    expect(updated.comment).toBe('renamed');
    const actions = await h.actions();
    expect(actions).toContain('SetNapDomainEntryRemark');
    expect(actions).not.toContain('AddNapAllowListDomain');

    // Leaving the comment out keeps what the API holds (it is a computed input).
    await h.clearCalls();
    expect((await antiDdosAllowedDomain.update(ctx, created.id, { inputs, outputs: updated }, { ...inputs, comment: undefined })).comment).toBe('renamed');
    expect(await h.actions()).not.toContain('SetNapDomainEntryRemark');

    // Replacement for a new domain: create the new entry, delete the old one.
    const other = await antiDdosAllowedDomain.create(ctx, { ...inputs, domain: 'example.org' });
    await antiDdosAllowedDomain.delete(ctx, created.id, { inputs, outputs: updated });
    expect(await antiDdosAllowedDomain.read(ctx, created.id)).toBeUndefined();
    expect(await antiDdosAllowedDomain.read(ctx, other.id)).toMatchObject({ status: 'Success' });

    await antiDdosAllowedDomain.delete(ctx, other.id, { inputs, outputs: other.outputs });
    await expect(antiDdosAllowedDomain.delete(ctx, other.id, { inputs, outputs: other.outputs })).resolves.toBeUndefined();
  });

  it('imports an existing entry by <instance_id>/<domain>', async () => {
    await h.client.call('AddNapAllowListDomain', { ResourceId: instanceId, Domain: ['imported.cn'] });
    const id = antiDdosAllowedDomain.importId!.parse(`${instanceId}/imported.cn`);
    const seen = await antiDdosAllowedDomain.read(h.resourceCtx(), id);
    expect(seen).toMatchObject({ instanceId, domain: 'imported.cn', comment: '' });
  });

  it('lists the entries of every instance for import discovery', async () => {
    const found = await antiDdosAllowedDomain.list!(h.resourceCtx());
    const ids = found.map((f) => f.id);
    expect(ids).toContain(`${instanceId}/imported.cn`);
    expect(ids.some((id) => id.endsWith('/example.org'))).toBe(true);
    for (const f of found) expect(f.id).toBe(`${f.outputs.instanceId}/${f.outputs.domain}`);
  });

  it('adopts an entry that is already on the list instead of adding it twice', async () => {
    await h.client.call('AddNapAllowListDomain', { ResourceId: instanceId, Domain: ['adopted.com'] });
    await h.clearCalls();
    const created = await antiDdosAllowedDomain.create(h.resourceCtx(), z.parse(antiDdosAllowedDomain.inputs, { instanceId, domain: 'adopted.com' }));
    expect(created.outputs.status).toBe('Success');
    expect(countActions(await h.actions(), 'AddNapAllowListDomain')).toBe(0);
  });

  it('fails clearly when the platform refuses the domain, an error that is no remote fault, and the type calls the entry failed', async () => {
    const err = await antiDdosAllowedDomain.create(h.resourceCtx(), z.parse(antiDdosAllowedDomain.inputs, { instanceId, domain: 'blocked-site.com' })).catch((e: unknown) => e);
    // Not a RemoteError: the API's word that the add failed taints the entry for replacement.
    expect(isRemote(err)).toBe(false);
    expect((err as Error).message).toContain('refused to allow blocked-site.com');
    expect((err as Error).message).toContain('Failure');
    // The failed entry is still there to be deleted.
    const id = `${instanceId}/blocked-site.com`;
    const seen = await antiDdosAllowedDomain.read(h.resourceCtx(), id);
    expect(seen).toMatchObject({ status: 'Failure' });
    expect(antiDdosAllowedDomain.provisioning!.failed!(seen!)).toBe('Failure');
    await antiDdosAllowedDomain.delete(h.resourceCtx(), id, { inputs: {} as never, outputs: {} as never });
    expect(await antiDdosAllowedDomain.read(h.resourceCtx(), id)).toBeUndefined();
  });

  it('treats entries of a deleted instance as gone', async () => {
    const inputs = z.parse(antiDdosInstance.inputs, { area: 'NorthChina', dataCenter: 'Shijiazhuang', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 30 });
    const temp = await antiDdosInstance.create(h.resourceCtx(), inputs);
    const entry = await antiDdosAllowedDomain.create(h.resourceCtx(), z.parse(antiDdosAllowedDomain.inputs, { instanceId: temp.id, domain: 'gone.com' }));
    await antiDdosInstance.delete(h.resourceCtx(), temp.id, { inputs, outputs: temp.outputs });
    expect(await antiDdosAllowedDomain.read(h.resourceCtx(), entry.id)).toBeUndefined();
    await expect(antiDdosAllowedDomain.delete(h.resourceCtx(), entry.id, { inputs: {} as never, outputs: entry.outputs })).resolves.toBeUndefined();
  });

  it('reports adding to an unknown instance as an invalid request', async () => {
    const err = await antiDdosAllowedDomain.create(h.resourceCtx(), z.parse(antiDdosAllowedDomain.inputs, { instanceId: 'usecure_ghp-nothere', domain: 'example.com' })).catch((e: unknown) => e);
    expect(isRemote(err, 'invalid')).toBe(true);
    expect((err as Error).message).toContain('usecure_ghp-nothere');
  });
});
