/**
 * Errors show the line they are about: under each positioned problem, the source line and a caret
 * (`^~~~` under the token there), as Terraform and rustc print them; long lines cut around the
 * caret, tabs kept, secrets masked; `--json` gives the line as `lineText`; problems without a
 * position print as before.
 */
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, rememberSource } from '../../src/kernel/diagnostics.js';
import { plumb, workdir, writeManifest } from '../support/cli.js';

const port = (properties: string) => `name: lines\nresources:\n  port:\n    type: interconnect:Port\n    properties:\n${properties}`;

describe('the source line under an error', () => {
  it('a misspelt required property is one error, its line shown with the key underlined', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', port('      productName: edge\n      portSped: 10000\n      locationId: 2\n      contractTermMonths: 1\n      marketplaceVisibility: false\n'));
    const result = await plumb(['validate'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        'plumb.yaml:7:7: error: unknown property "portSped" for interconnect:index/port:Port',
        '   7 |       portSped: 10000',
        '     |       ^~~~~~~~',
        '    valid properties: productName, portSpeed, locationId, contractTermMonths, marketplaceVisibility, costCentre, diversityZone, promoCode, resourceTags; did you mean "portSpeed", which is required?',
        '1 error; nothing was changed.',
        '',
      ].join('\n'),
    );
  });

  it('two problems on one line each show it, the caret under each; --json gives the line as lineText', async () => {
    const dir = workdir();
    const props = '{ productName: edge, portSpeed: 2000, locationId: 2, contractTermMonths: 1, promo: x }';
    writeManifest(dir, 'plumb.yaml', port(`      ${props}\n`));
    const result = await plumb(['validate'], { cwd: dir });
    const line = `   6 |       ${props}`;
    expect(result.stderr).toContain(`plumb.yaml:6:39: error: portSpeed 2000 is not valid: must be one of 1000, 10000, 100000, 400000\n${line}\n     |${' '.repeat(39)}^~~~\n`);
    expect(result.stderr).toContain(`plumb.yaml:6:83: error: unknown property "promo" for interconnect:index/port:Port\n${line}\n     |${' '.repeat(83)}^~~~~\n`);
    const json = JSON.parse((await plumb(['validate', '--json'], { cwd: dir })).stdout);
    expect(json.diagnostics.map((d: { lineText: string }) => d.lineText)).toContain(`      ${props}`);
    expect(json.diagnostics.every((d: { lineText: string }) => d.lineText === `      ${props}`)).toBe(true);
  });

  it('a secret written on the line is masked, the caret kept under its token', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', port('      { productName: { fn::secret: hunter2hunter2 }, portSpeed: 2000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }\n'));
    const result = await plumb(['validate'], { cwd: dir });
    expect(result.stderr).not.toContain('hunter2');
    expect(result.stderr).toContain('   6 | …ecret: [secret] }, portSpeed: 2000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: fal…\n     |                                ^~~~\n');
    expect((await plumb(['validate', '--json'], { cwd: dir })).stdout).not.toContain('hunter2');
  });

  it('a value for a key declared secret, written in plain text in a stack file, is masked on the line under its error', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', 'name: edge\nconfig:\n  pin: { type: integer, secret: true }\noutputs:\n  p: ${pin}\n');
    writeManifest(dir, 'plumb.dev.yaml', 'config:\n  edge:pin: hunter2\n');
    const result = await plumb(['validate', '--stack', 'dev'], { cwd: dir });
    expect(result.stderr).toContain('plumb.dev.yaml:2:13: error: config pin: the value (secret) is not an integer\n   2 |   edge:pin: [secret]\n');
    expect(result.stderr + (await plumb(['validate', '--stack', 'dev', '--json'], { cwd: dir })).stdout).not.toContain('hunter2');
  });

  it('a problem without a position prints as before', async () => {
    const result = await plumb(['plan', 'nowhere.yaml'], { cwd: workdir() });
    expect(result.stderr).toMatch(/^Error: manifest nowhere.yaml not found\n/);
    expect(result.stderr).not.toContain(' | ');
  });
});

describe('formatDiagnostic', () => {
  const at = (file: string, line: number, column: number) => formatDiagnostic({ severity: 'error', summary: 'wrong', pos: { file, line, column } });

  it('cuts a long line around the caret, marking what is left out', () => {
    const text = `key: [${'a'.repeat(200)}, bad, ${'b'.repeat(200)}]\n`;
    rememberSource('long.yaml', text);
    const [, shown, caret] = at('long.yaml', 1, 209).split('\n');
    expect(shown).toMatch(/^ {3}1 \| …a+, bad, b+…$/);
    expect(shown.length).toBeLessThan(120);
    expect(caret.indexOf('^')).toBe(shown.indexOf('bad'));
    expect(caret).toMatch(/\^~~$/);
  });

  it('keeps tabs before the caret, so it lines up whatever the tab width', () => {
    rememberSource('tabs.yaml', 'key: "a\tb"\nother: [1,\t2]\n');
    expect(at('tabs.yaml', 2, 12).split('\n').slice(1)).toEqual(['   2 | other: [1,\t2]', '     |           \t^']);
  });

  it('shows no line for a file not read, nor for a line it does not have', () => {
    expect(at('unread.yaml', 1, 1)).toBe('unread.yaml:1:1: error: wrong');
    rememberSource('short.yaml', 'a: 1\n');
    expect(at('short.yaml', 9, 1)).toBe('short.yaml:9:1: error: wrong');
  });
});
