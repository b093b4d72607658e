/**
 * examples/pipeline/group-overview.yaml works against the sandbox: every invoke names a real
 * lookup with valid arguments, and evaluating its references (with a deliberately tiny
 * evaluator for the subset it uses: fn::invoke with return, ${a.b[0].c} interpolation) yields
 * the group's destination, paused connections and team memberships.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pipelineLookups } from '../../../src/lookups/pipeline/index.js';
import { clientFor, contextFor, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';

const FILE = resolve(import.meta.dirname, '../../../examples/pipeline/group-overview.yaml');
const manifest = parse(readFileSync(FILE, 'utf8')) as {
  name: string;
  variables: Record<string, { 'fn::invoke': { function: string; arguments: Record<string, unknown>; return?: string } }>;
  outputs: Record<string, unknown>;
};

const REF = /\$\{([^}]+)\}/g;

/** Evaluates the manifest's variables and outputs, resolving each reference once, on demand. */
async function evaluate(sandbox: PipelineSandbox): Promise<Record<string, unknown>> {
  const ctx = contextFor(clientFor(sandbox, { pageSize: 2 }));
  const values = new Map<string, Promise<unknown>>();

  const variable = (name: string): Promise<unknown> => {
    if (!values.has(name)) {
      const invoke = manifest.variables[name]?.['fn::invoke'];
      if (!invoke) throw new Error(`unknown variable ${name}`);
      const fn = pipelineLookups.find((f) => f.token === invoke.function);
      if (!fn) throw new Error(`unknown function ${invoke.function}`);
      values.set(
        name,
        (async () => {
          const result = (await fn.invoke(ctx, (await value(invoke.arguments ?? {})) as never)) as Record<string, unknown>;
          return invoke.return ? result[invoke.return] : result;
        })(),
      );
    }
    return values.get(name)!;
  };

  const reference = async (path: string): Promise<unknown> => {
    const [root, ...rest] = path.split(/\.|(?=\[)/);
    let current: any = await variable(root);
    for (const part of rest) current = part.startsWith('[') ? current[Number(part.slice(1, -1))] : current[part];
    return current;
  };

  const value = async (node: unknown): Promise<unknown> => {
    if (typeof node === 'string') {
      const whole = /^\$\{([^}]+)\}$/.exec(node);
      if (whole) return reference(whole[1]);
      const parts = await Promise.all([...node.matchAll(REF)].map((m) => reference(m[1])));
      let i = 0;
      return node.replace(REF, () => String(parts[i++]));
    }
    if (Array.isArray(node)) return Promise.all(node.map(value));
    if (node && typeof node === 'object') {
      return Object.fromEntries(await Promise.all(Object.entries(node).map(async ([k, v]) => [k, await value(v)])));
    }
    return node;
  };

  return (await value(manifest.outputs)) as Record<string, unknown>;
}

describe('examples/pipeline/group-overview.yaml', () => {
  let sandbox: PipelineSandbox;
  beforeAll(async () => (sandbox = await pipelineSandbox()));
  afterAll(async () => sandbox.close());

  it('uses only the manifest keys and built-ins the engine supports', () => {
    expect(Object.keys(manifest).sort()).toEqual(['name', 'outputs', 'variables']);
    for (const [name, v] of Object.entries(manifest.variables)) {
      expect(Object.keys(v), name).toEqual(['fn::invoke']);
      const fn = pipelineLookups.find((f) => f.token === v['fn::invoke'].function);
      expect(fn, name).toBeDefined();
    }
  });

  it('chains several lookups by reference', () => {
    const text = readFileSync(FILE, 'utf8');
    expect(text).toContain('id: ${group.id}');
    expect(text).toContain('groupId: ${destination.groupId}');
    expect(text).toContain('teamId: ${team.id}');
  });

  it('reports the group destination, its paused connections and the team memberships', async () => {
    const outputs = await evaluate(sandbox);
    expect(outputs.group).toBe('Analytics Warehouse');
    expect(outputs.destination).toBe('snowflake in AWS_US_EAST_1 (connected)');
    expect(outputs.destinationTimeZoneOffset).toBe('-5');
    const paused = outputs.pausedConnections as Array<{ id: string; paused: boolean; groupId: string }>;
    expect(paused.map((c) => c.id).sort()).toEqual(['velvet_fox', 'zesty_mango']);
    expect(paused.every((c) => c.paused && c.groupId === 'decent_dropsy')).toBe(true);
    expect(outputs.firstPausedConnection).toBe('hubspot');
    expect(outputs.team).toBe('Data Platform (Account Reviewer)');
    expect(outputs.teamGroupMemberships).toContainEqual({ groupId: 'decent_dropsy', role: 'Destination Administrator', createdAt: '2023-02-01T09:05:00.000000Z' });
    expect((outputs.teamConnectionMemberships as Array<{ connectionId: string }>).map((m) => m.connectionId)).toEqual(['ample_kitten', 'lucid_parrot', 'fresh_clam', 'bright_comet']);
  });
});
