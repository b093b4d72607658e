/** What the CLI tests of the cloud examples share: the writes the sandbox saw, the state a stack recorded, a command, an edit. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { plumb, type testSandbox } from './cli.js';
import { stateFile } from './state-file.js';

type TestSandbox = Awaited<ReturnType<typeof testSandbox>>;

/** Helpers bound to the sandbox `sandbox()` returns (started in a beforeAll). */
export function cloudExampleKit(sandbox: () => TestSandbox) {
  const state = (dir: string, stack = 'default') => JSON.parse(readFileSync(stateFile(dir, stack), 'utf8')) as { resources: Record<string, { id: string; type: string }> };
  const run = (dir: string, ...args: string[]) => plumb(args, { cwd: dir, env: sandbox().env });
  return {
    /** The cloud Actions received since the last clear, in order, reads (Describe, Get, List) left out. */
    async writes(): Promise<string[]> {
      return (await sandbox().calls('cloud')).map((c) => String(c.query.Action)).filter((a) => !/^(Describe|Get|List)/.test(a));
    },
    /** The state file of a stack in `dir`. */
    state,
    /** `plumb ARGS` in `dir` against the sandbox. */
    run,
    /** `plumb apply --yes ARGS` in `dir`, which must succeed with nothing on stderr. */
    async apply(dir: string, ...args: string[]): Promise<void> {
      const applied = await run(dir, 'apply', '--yes', ...args);
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
    },
    /**
     * Imports the recorded objects at `addresses` (all by default) into a fresh stack `adopted` of
     * `dir`, one `plumb import` each, and asserts that stack then plans no change.
     */
    async importPlansNoChange(dir: string, addresses?: string[]): Promise<void> {
      const recorded = state(dir).resources;
      for (const address of addresses ?? Object.keys(recorded)) {
        const imported = await run(dir, 'import', address, recorded[address].type, recorded[address].id, '--stack', 'adopted');
        expect(imported.stderr, address).toBe('');
        expect(imported.code, address).toBe(0);
      }
      const plan = await run(dir, 'plan', '--stack', 'adopted', '--detailed-exitcode');
      expect(plan.stdout).toContain('No changes.');
      expect(plan.code).toBe(0);
    },
    /** Replaces `from` (which must be there) with `to` in the manifest of `dir`. */
    edit(dir: string, from: string, to: string): void {
      const text = readFileSync(join(dir, 'plumb.yaml'), 'utf8');
      expect(text).toContain(from);
      writeFileSync(join(dir, 'plumb.yaml'), text.replace(from, to));
    },
  };
}

/**
 * A cloud manifest `name` in the sandbox's region and project whose first resource is the VPC
 * `network` (`vpc` its name and range), then `more` (resources under `resources:`, indented two
 * spaces). The VPC is on lines 6 to 8.
 */
export function cloudManifest(name: string, vpc: { name: string; cidr: string }, more: string): string {
  return `name: ${name}
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
  network:
    type: cloud:index/vpc:Vpc
    properties: { name: ${vpc.name}, cidrBlocks: [${vpc.cidr}] }
${more}`;
}

/** Every file under a folder, as text (to show a secret is nowhere in it). */
export function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}
