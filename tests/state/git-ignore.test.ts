/**
 * State protects itself: after the README's first apply, `git add -A` stages nothing of
 * `.plumb/` — state, the key that opens its secrets, the sandbox's world.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plumb, workdir, writeManifest } from '../support/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** The README's "Try it" runs with no running sandbox and no credentials. */
const README_ENV = { PLUMB_SANDBOX_URL: undefined, PLUMB_SANDBOX_PROVISIONING_MS: '0', INTERCONNECT_ACCESS_KEY: undefined, INTERCONNECT_SECRET_KEY: undefined };

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
}

/** What `git add -A` stages in the repository at `dir`. */
function staged(dir: string): string[] {
  git(dir, 'add', '-A');
  return git(dir, 'status', '--porcelain').split('\n').filter(Boolean);
}

describe('state keeps git out', () => {
  it("the README's first apply, then one that seals a secret: git add -A stages nothing under .plumb/", async () => {
    const repo = workdir('plumb-git-');
    git(repo, 'init', '-q');
    mkdirSync(join(repo, 'examples', 'interconnect'), { recursive: true });
    copyFileSync(join(ROOT, 'examples', 'interconnect', 'port.yaml'), join(repo, 'examples', 'interconnect', 'port.yaml'));
    const applied = await plumb(['apply', 'examples/interconnect/port.yaml', '--yes'], { cwd: repo, env: README_ENV });
    expect(applied.code, applied.stderr).toBe(0);
    expect(readFileSync(join(repo, 'examples', 'interconnect', '.plumb', 'sydney-port', 'default', 'state.json'), 'utf8')).toContain('syd-port-1');
    expect(staged(repo)).toEqual(['A  examples/interconnect/port.yaml']);

    writeManifest(
      join(repo, 'examples', 'interconnect'),
      'secret.yaml',
      'name: sealed\nresources:\n  port:\n    type: interconnect:Port\n    properties: { productName: sealed-port, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false, costCentre: { fn::secret: cc-sealed-4417 } }\n',
    );
    expect((await plumb(['apply', 'examples/interconnect/secret.yaml', '--yes'], { cwd: repo, env: README_ENV })).code).toBe(0);
    expect(readFileSync(join(repo, 'examples', 'interconnect', '.plumb', 'secret.key'), 'utf8')).not.toBe('');
    expect(staged(repo).filter((line) => line.includes('.plumb'))).toEqual([]);
  });

  it('a state folder given with --state keeps git out too; a .gitignore the user wrote there is kept as it is', async () => {
    const repo = workdir('plumb-git-');
    git(repo, 'init', '-q');
    writeManifest(
      repo,
      'plumb.yaml',
      'name: elsewhere\nresources:\n  port:\n    type: interconnect:Port\n    properties: { productName: else-port, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }\n',
    );
    expect((await plumb(['apply', '--yes', '--state', 'kept'], { cwd: repo, env: README_ENV })).code).toBe(0);
    expect(staged(repo).filter((line) => line.includes('kept/'))).toEqual([]);

    mkdirSync(join(repo, 'own'));
    writeFileSync(join(repo, 'own', '.gitignore'), 'secret.key\n');
    expect((await plumb(['apply', '--yes', '--state', 'own'], { cwd: repo, env: README_ENV })).code).toBe(0);
    expect(readFileSync(join(repo, 'own', '.gitignore'), 'utf8')).toBe('secret.key\n');
  });

  it("a sandbox world kept elsewhere in the project (--data) keeps git out of its folder; a folder of the user's is left as it is", async () => {
    const repo = workdir('plumb-git-');
    git(repo, 'init', '-q');
    const kept = await plumb(['sandbox', 'settings', '--data', 'world', '--provisioning-ms', '0'], { cwd: repo, env: README_ENV });
    expect(kept.code, kept.stderr).toBe(0);
    expect(readdirSync(join(repo, 'world')).filter((name) => name.endsWith('.json')).length).toBeGreaterThan(0);
    expect(staged(repo)).toEqual([]);

    mkdirSync(join(repo, 'ops'));
    writeFileSync(join(repo, 'ops', 'notes.md'), 'runbook\n');
    expect((await plumb(['sandbox', 'settings', '--data', 'ops', '--provisioning-ms', '0'], { cwd: repo, env: README_ENV })).code).toBe(0);
    expect(existsSync(join(repo, 'ops', '.gitignore'))).toBe(false);
  });

  it("a state folder that was already there is the user's: what they keep in it is still staged, plumb's state and key are not", async () => {
    const repo = workdir('plumb-git-');
    git(repo, 'init', '-q');
    writeManifest(
      repo,
      'plumb.yaml',
      'name: shared\nresources:\n  port:\n    type: interconnect:Port\n    properties: { productName: shared-port, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false, costCentre: { fn::secret: cc-shared-5521 } }\n',
    );
    mkdirSync(join(repo, 'ops'));
    writeFileSync(join(repo, 'ops', 'notes.md'), 'runbook\n');
    const applied = await plumb(['apply', '--yes', '--state', 'ops'], { cwd: repo, env: README_ENV });
    expect(applied.code, applied.stderr).toBe(0);
    expect(readFileSync(join(repo, 'ops', 'shared', 'default', 'state.json'), 'utf8')).toContain('shared-port');
    expect(readFileSync(join(repo, 'ops', 'secret.key'), 'utf8')).not.toBe('');
    expect(staged(repo).filter((line) => line.includes('ops/'))).toEqual(['A  ops/.gitignore', 'A  ops/notes.md']);
    expect(readFileSync(join(repo, 'ops', '.gitignore'), 'utf8')).toContain('/secret.key\n');
  });
});
