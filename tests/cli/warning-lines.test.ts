/**
 * Warnings show the line they are about, as errors do: a warning with a place in a file prints as
 * `file:line:col: warning: …` with the source line and a caret, once per command, in plan, apply,
 * validate, the markdown and the review page; `--json` gives its place (validate: `file`, `line`,
 * `column`; plan: `warningsAt`, beside the one-line `warnings` it always had).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plumb, workdir, writeManifest } from '../support/cli.js';

const OLDER = 'configuration: is the older spelling of config:; it is read the same way';
const UNDECLARED = 'portSped is set for stack "dev" but plumb.yaml does not declare it; did you mean portSpeed? declared keys: portSpeed';
const older = `plumb.yaml:2:1: warning: ${OLDER}\n   2 | configuration:\n     | ^~~~~~~~~~~~~\n`;
const undeclared = `plumb.dev.yaml:3:17: warning: ${UNDECLARED}\n   3 |   cfg:portSped: 100\n     |                 ^~~\n`;

function project(): string {
  const dir = workdir();
  writeManifest(dir, 'plumb.yaml', 'name: cfg\nconfiguration:\n  portSpeed: { type: integer }\nresources: {}\noutputs:\n  speed: ${portSpeed}\n');
  writeManifest(dir, 'plumb.dev.yaml', 'config:\n  cfg:portSpeed: 10\n  cfg:portSped: 100\n');
  return dir;
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('a warning at a place shows its source line', () => {
  it('plan prints each with its line and caret, once; apply of the saved plan too', async () => {
    const dir = project();
    const state = ['--stack', 'dev', '--state', join(dir, 'state')];
    const planned = await plumb(['plan', ...state, '--out', 'plan.json'], { cwd: dir });
    expect(planned.code).toBe(0);
    for (const warning of [older, undeclared]) expect(count(planned.stdout, warning)).toBe(1);
    expect(planned.stdout).not.toContain('Warning:');
    const applied = await plumb(['apply', 'plan.json', ...state], { cwd: dir });
    expect(applied.code).toBe(0);
    for (const warning of [older, undeclared]) expect(count(applied.stdout + applied.stderr, warning)).toBe(1);
  });

  it('plan --json keeps warnings as lines and gives each place in warningsAt', async () => {
    const dir = project();
    const planned = await plumb(['plan', '--stack', 'dev', '--state', join(dir, 'state'), '--json'], { cwd: dir });
    const plan = JSON.parse(planned.stdout);
    expect(plan.warnings).toEqual([`plumb.yaml:2:1: ${OLDER}`, `plumb.dev.yaml:3:17: ${UNDECLARED}`]);
    expect(plan.warningsAt).toEqual([
      { severity: 'warning', summary: OLDER, pos: { file: 'plumb.yaml', line: 2, column: 1 } },
      { severity: 'warning', summary: UNDECLARED, pos: { file: 'plumb.dev.yaml', line: 3, column: 17 } },
    ]);
  });

  it('validate --json gives file, line and column; the markdown and the review page show the line', async () => {
    const dir = project();
    const json = JSON.parse((await plumb(['validate', '--stack', 'dev', '--json'], { cwd: dir })).stdout);
    expect(json.diagnostics[0]).toEqual({ severity: 'warning', summary: OLDER, file: 'plumb.yaml', line: 2, column: 1, lineText: 'configuration:' });
    const markdown = await plumb(['plan', '--stack', 'dev', '--state', join(dir, 'state'), '--format', 'markdown', '--html', 'plan.html'], { cwd: dir });
    expect(markdown.stdout).toContain(`> **Warning:** plumb.yaml:2:1: ${OLDER}\n\n\`\`\`text\n   2 | configuration:\n     | ^~~~~~~~~~~~~\n\`\`\`\n`);
    const page = readFileSync(join(dir, 'plan.html'), 'utf8');
    expect(page).toContain('<pre>   3 |   cfg:portSped: 100\n     |                 ^~~</pre>');
  });

  it('the provider pins note points at the first pin; a Main.yaml name that is not the project name at that name', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      'name: pins\nresources:\n  port:\n    type: interconnect:Port\n    properties: { productName: a, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }\n    options:\n      version: 1.2.3\n',
    );
    const pins = await plumb(['validate'], { cwd: dir });
    expect(pins.stderr).toBe(
      "plumb.yaml:7:16: warning: options.version (port) ignored: plumb's providers are built in, so there is no plugin to pin or download\n   7 |       version: 1.2.3\n     |                ^~~~~\n",
    );
    const pulumi = workdir();
    writeManifest(pulumi, 'Pulumi.yaml', 'name: shop\nruntime: yaml\n');
    writeManifest(pulumi, 'Main.yaml', 'name: store\nresources: {}\n');
    const named = await plumb(['validate'], { cwd: pulumi });
    expect(named.stderr).toBe('Main.yaml:1:1: warning: Main.yaml is named "store", but its project is "shop" (Pulumi.yaml), which plumb goes by\n   1 | name: store\n     | ^~~~\n');
  });
});
