import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore, READ_PIECE } from '../../src/state/local.js';
import { openStateStore } from '../../src/state/open.js';
import { SecretCodec } from '../../src/state/secrets.js';
import { Secret } from '../../src/values.js';
import type { StateStore } from '../../src/state/store.js';
import { describeStateStore } from '../support/state-conformance.js';

const codec = SecretCodec.open('', 'conformance passphrase');

describeStateStore('local folder', async () => {
  const root = mkdtempSync(join(tmpdir(), 'plumb-state-'));
  const dir = join(root, 'dev');
  const opened: StateStore[] = [];
  const open = () => {
    const store = openStateStore(root, 'dev', codec);
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    other: async () => open(),
    async crash() {
      // The holder's process is gone: its pid in the lock file no longer runs on this host.
      const lock = JSON.parse(readFileSync(join(dir, 'lock'), 'utf8'));
      writeFileSync(join(dir, 'lock'), JSON.stringify({ ...lock, pid: deadPid() }));
    },
    async raw() {
      if (!existsSync(dir)) return '';
      return readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    },
    async cleanup() {
      for (const store of opened) await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
});

describe('openStateStore with a folder', () => {
  it('opens a LocalStore at the resolved path', async () => {
    const store = openStateStore('relative/state', 'dev', codec);
    expect(store).toBeInstanceOf(LocalStore);
    expect(store.location).toBe(join(process.cwd(), 'relative/state', 'dev'));
    await store.close();
  });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (!child.pid) throw new Error('could not start a short-lived process');
  return child.pid;
}

describe('the local snapshot', () => {
  const resource = (address: string, extra: Record<string, unknown> = {}) => ({
    address,
    type: 'interconnect:index/vxc:Vxc',
    id: `uid-${address}`,
    inputs: { productName: `név ${address}`, outputs: 0, aEnd: { requestedProductUid: 'p' } },
    outputs: { productUid: `uid-${address}`, provisioningStatus: 'LIVE', aEndCurrent: { vlan: 2, name: 'line\nbreak "quoted"' } },
    dependencies: ['port0'],
    status: 'ok' as const,
    ...extra,
  });
  const snapshot = () => ({
    version: 1 as const,
    stack: 'dev',
    lineage: 'lineage-1',
    serial: 4,
    resources: {
      port0: resource('port0', { protect: true }),
      'odd "name": {x}': resource('odd "name": {x}'),
      bare: { address: 'bare', type: 't', id: 'b', inputs: {}, dependencies: [], status: 'ok' as const, retainOnDelete: undefined },
    },
    outputs: { url: 'x' },
    pending: [],
  });
  let root: string;
  let file: string;
  let store: LocalStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'plumb-snapshot-'));
    file = join(root, 'dev', 'state.json');
    store = new LocalStore(root, 'dev', codec);
  });
  afterEach(async () => {
  });

  it('is plain JSON, and reads back equal, keys in the same order', async () => {
    const written = snapshot();
    await store.write(written);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ...written, serial: 5, resources: JSON.parse(JSON.stringify(written.resources)) });
    const read = await store.read();
    expect(JSON.stringify(read)).toBe(JSON.stringify({ ...written, serial: 5 }));
    expect(Object.keys(read.resources.port0)).toEqual(['address', 'type', 'id', 'inputs', 'outputs', 'dependencies', 'status', 'protect']);
  });

  it('reads a snapshot written whole on one line, as earlier versions wrote it', async () => {
    await store.write(snapshot());
    writeFileSync(file, JSON.stringify({ ...snapshot(), serial: 9 }));
    expect(JSON.stringify(await store.read())).toBe(JSON.stringify({ ...snapshot(), serial: 9 }));
  });

  it('writes outputs changed after reading, whether replaced or edited in place', async () => {
    await store.write(snapshot());
    const read = await store.read();
    read.resources.port0.outputs = { productUid: 'replaced' };
    (read.resources['odd "name": {x}'].outputs.aEndCurrent as { vlan: number }).vlan = 99;
    await store.write(read);
    const again = await store.read();
    expect(again.resources.port0.outputs).toEqual({ productUid: 'replaced' });
    expect(again.resources['odd "name": {x}'].outputs).toMatchObject({ aEndCurrent: { vlan: 99 } });
  });

  it('writes a large state in pieces, and seals a secret met only near its end', async () => {
    const large = snapshot();
    for (let i = 0; i < 1000; i++) (large.resources as Record<string, unknown>)[`vxc${i}`] = resource(`vxc${i}`);
    (large.resources as Record<string, unknown>).vxc999 = resource('vxc999', { outputs: { serviceKey: new Secret('plaintext-key-0042') } });
    await store.write(large);
    const text = readFileSync(file, 'utf8');
    expect(text.length).toBeGreaterThan(3 * 65536);
    expect(text).not.toContain('plaintext-key-0042');
    expect(text).not.toContain('[secret]');
    const read = await store.read();
    expect(Object.keys(read.resources)).toHaveLength(1003);
    expect((read.resources.vxc999.outputs.serviceKey as Secret<string>).value).toBe('plaintext-key-0042');
    expect(read.resources.vxc7).toEqual(JSON.parse(JSON.stringify(resource('vxc7'))));
  });

  it('reads a state of several read pieces, ASCII at first, with a character split between two pieces', async () => {
    const large = { ...snapshot(), resources: {} as ReturnType<typeof snapshot>['resources'] };
    // Names of several bytes per character from the second piece on; padding one of them moves
    // the rest a byte at a time until one character straddles the end of the second piece.
    let straddles = false;
    for (let pad = 0; pad < 1000 && !straddles; pad++) {
      for (let i = 0; i < 1600; i++) {
        const name = i < 1200 ? `vxc${i}` : `${i === 1200 ? '-'.repeat(pad) : ''}東京 ${'🔌'.repeat(50)} Zürich ${i}`;
        (large.resources as Record<string, unknown>)[`vxc${i}`] = resource(`vxc${i}`, { inputs: { productName: name } });
      }
      await store.write(large);
      const bytes = readFileSync(file);
      expect(bytes.subarray(0, READ_PIECE).every((b) => b < 0x80)).toBe(true);
      straddles = (bytes[2 * READ_PIECE] & 0xc0) === 0x80;
    }
    expect(straddles).toBe(true);
    const read = await store.read();
    expect(JSON.stringify(read.resources)).toBe(JSON.stringify(large.resources));
    expect(read.resources.vxc1599.outputs).toEqual(large.resources.vxc1599.outputs);
  });

  it('writes no outputs for a resource whose outputs were removed unread', async () => {
    await store.write(snapshot());
    const read = await store.read();
    delete (read.resources.port0 as { outputs?: unknown }).outputs;
    await store.write(read);
    expect((await store.read()).resources.port0).not.toHaveProperty('outputs');
  });

  it('reports damaged outputs with the address they belong to, when they are read', async () => {
    await store.write(snapshot());
    const lines = readFileSync(file, 'utf8').split('\n');
    const damaged = lines.findIndex((l) => l.startsWith('"port0"')) + 1;
    lines[damaged] = lines[damaged].slice(0, 20);
    writeFileSync(file, lines.join('\n'));
    const read = await store.read();
    expect(read.resources.bare.id).toBe('b');
    expect(() => read.resources.port0.outputs).toThrow(/record of port0 is damaged/);
    expect(() => read.resources.port0.outputs).toThrow(`${file}:${damaged + 1}:`);
  });
});
