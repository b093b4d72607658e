import { describe, expect, it } from 'vitest';
import type { ResourceContext } from '../../../src/engine/contracts/resource-type.js';
import { refreshState } from '../../../src/engine/planning/refresh.js';
import { Secret } from '../../../src/kernel/values.js';
import { applyFake, planFake } from '../../support/engine-run.js';
import { fakeDeps, fakeType, MemoryStore } from '../../support/fakes.js';

const manifest = `
resources:
  vault: { type: fake:Thing, properties: { name: vault, ref: hunter2 } }
  open: { type: fake:Thing, properties: { name: open, ref: visible } }
`;

/** A fake type whose `ref` is secret for objects named `vault` only, as its catalogue would say. */
function vaultType() {
  const fake = fakeType();
  fake.type.secrets = {
    ...fake.type.secrets,
    pathsFor: async (desired: Record<string, unknown>, ctx: ResourceContext) => {
      const catalogue = await ctx.shared('catalogue', async () => new Set(['vault']));
      return catalogue.has(String(desired.name)) ? ['ref'] : [];
    },
  };
  return fake;
}

describe('secrets a type names from the declared values (secrets.pathsFor)', () => {
  it('the plan shows them as [secret], and state never holds them in clear', async () => {
    const fake = vaultType();
    const store = new MemoryStore();
    const { plan } = await applyFake(manifest, fake, store);
    const after = Object.fromEntries(plan.changes.map((c) => [c.address, c.after]));
    expect(after.vault).toMatchObject({ ref: '[secret]' });
    expect(after.open).toMatchObject({ ref: 'visible' });
    expect(JSON.stringify(plan)).not.toContain('hunter2');
    // The memory store keeps a Secret as its clone; the file and database stores encrypt it.
    const stored = await store.read();
    expect(stored.resources.vault.inputs.ref).not.toBe('hunter2');
    expect(stored.resources.vault.outputs.ref).not.toBe('hunter2');
    expect(stored.resources.open.inputs.ref).toBe('visible');
    // Its inputs reached the handler in clear: sealing is for plans and state, not for the call.
    expect(fake.calls.find((c) => c.verb === 'create' && c.address === 'vault')?.inputs).toMatchObject({ ref: expect.anything() });
  });

  it('a refresh seals what the type names, though state recorded it before the type said so', async () => {
    const fake = vaultType();
    const plainType = { ...fake.type, secrets: { ...fake.type.secrets, pathsFor: undefined } };
    const store = new MemoryStore();
    await applyFake(manifest, { ...fake, type: plainType }, store);
    const refreshed = await refreshState(await store.read(), fakeDeps(fake.type));
    expect(refreshed.resources.vault.outputs.ref).toBeInstanceOf(Secret);
    expect(refreshed.resources.vault.inputs.ref).toBeInstanceOf(Secret);
    expect(refreshed.resources.open.outputs.ref).toBe('visible');
  });
});
