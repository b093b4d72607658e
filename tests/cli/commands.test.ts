import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashAfterRecords, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { pipelineCall } from '../support/pipeline-sandbox.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const port = (name: string) =>
  `name: ${name}\nresources:\n  port:\n    type: interconnect:Port\n    properties: { productName: ${name}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }\noutputs:\n  portUid: \${port.productUid}\n  speed: \${port.portSpeed}\n  where: { location: 2, name: "${name}" }\n`;

describe('global flags, before or after any command', () => {
  it('-f, --stack and --no-color work after the command, state and import included, and before it', async () => {
    const dir = workdir();
    writeManifest(dir, 'edge.yaml', port('edge'));
    const env = sandbox.env;
    expect((await plumb(['apply', '--yes', '-f', 'edge.yaml', '--stack', 'blue', '--no-color'], { cwd: dir, env })).code).toBe(0);
    for (const args of [
      ['state', 'list', '-f', 'edge.yaml', '--stack', 'blue'],
      ['state', '-f', 'edge.yaml', 'list', '--stack', 'blue'],
      ['-f', 'edge.yaml', '--stack', 'blue', 'state', 'list'],
      ['--stack', 'green', 'state', 'list', '-f', 'edge.yaml', '--stack', 'blue'],
    ]) {
      const listed = await plumb(args, { cwd: dir, env });
      expect(listed.stderr, args.join(' ')).toBe('');
      expect(listed.stdout, args.join(' ')).toMatch(/^port\tinterconnect:index\/port:Port\t/);
    }
    // The stack comes from PLUMB_STACK when no --stack is given; a flag still wins.
    expect((await plumb(['state', 'list', '-f', 'edge.yaml'], { cwd: dir, env: { ...env, PLUMB_STACK: 'blue' } })).stdout).toMatch(/^port\t/);
    expect((await plumb(['state', 'list', '-f', 'edge.yaml', '--stack', 'default'], { cwd: dir, env: { ...env, PLUMB_STACK: 'blue' } })).stdout).toBe('');
    const plan = await plumb(['plan', '--no-color', '--stack', 'blue', '-f', 'edge.yaml', '--log-level', 'silent'], { cwd: dir, env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    // import: -f is the manifest, --file the list of imports.
    const uid = JSON.parse((await plumb(['state', 'show', 'port', '--json', '-f', 'edge.yaml', '--stack', 'blue'], { cwd: dir, env })).stdout).id as string;
    writeFileSync(join(dir, 'imports.yaml'), `- { address: again, type: interconnect:Port, id: ${uid} }\n`);
    const imported = await plumb(['import', '-f', 'edge.yaml', '--stack', 'green', '--file', 'imports.yaml', '--force'], { cwd: dir, env });
    expect(imported.code, imported.stderr).toBe(0);
    expect((await plumb(['state', 'list', '--stack', 'green', '-f', 'edge.yaml'], { cwd: dir, env })).stdout).toMatch(/^again\t/);
  });

  it('a mistyped command or flag is one line with a suggestion, not the whole help', async () => {
    const dir = workdir();
    const typo = await plumb(['plna'], { cwd: dir });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe("error: unknown command 'plna'; did you mean plan? (plumb --help for usage)\n");
    const flag = await plumb(['plan', '--no-refrsh'], { cwd: dir });
    expect(flag.stderr).toBe("error: unknown option '--no-refrsh'; did you mean --no-refresh? (plumb plan --help for usage)\n");
    const nested = await plumb(['state', 'lsit'], { cwd: dir });
    expect(nested.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(nested.stderr).toContain('did you mean list?');
  });

  it('destroy --help describes destroy', async () => {
    const help = (await plumb(['destroy', '--help'], { cwd: workdir() })).stdout;
    expect(help).toMatch(/^Usage: plumb destroy \[options\] \[manifest\]\n\ndelete every resource of the stack, dependents first/);
    // Descriptions wrap at a column set by the longest flag: read as one line.
    const words = help.replace(/\s+/g, ' ');
    expect(words).toContain('destroy only this resource and what depends on it');
    expect(words).toContain('do not read remote objects before destroying');
    expect(help).not.toMatch(/--replace|--out|plan only/);
  });
});

describe('version, completion, output and init', () => {
  it('plumb version and -v print the version and npm name of package.json', async () => {
    const { name, version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'));
    const dir = workdir();
    expect((await plumb(['version'], { cwd: dir })).stdout).toBe(`plumb ${version} (npm package ${name}, node ${process.version}, ${process.platform}-${process.arch})\n`);
    expect((await plumb(['-v'], { cwd: dir })).stdout).toBe(`${version}\n`);
    expect(JSON.parse((await plumb(['version', '--json'], { cwd: dir })).stdout)).toEqual({ version, package: name, node: process.version, platform: `${process.platform}-${process.arch}` });
  });

  it('bash completes commands, subcommands and their flags; zsh and fish scripts name them all', async () => {
    const dir = workdir();
    const script = join(dir, 'plumb.bash');
    writeFileSync(script, (await plumb(['completion', 'bash'], { cwd: dir })).stdout);
    const complete = (...words: string[]) =>
      execFileSync('bash', ['-c', `source "$1"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _plumb; echo "\${COMPREPLY[*]}"`, 'bash', script], {
        encoding: 'utf8',
      }).trim();
    expect(complete('plumb', 'pl')).toBe('plan');
    expect(complete('plumb', 'state', 'l')).toBe('list');
    expect(complete('plumb', 'sandbox', 's').split(' ').sort()).toEqual(['settings', 'start']);
    expect(complete('plumb', '--stack', 'x', 'plan', '--no-r')).toBe('--no-refresh');
    expect(complete('plumb', 'state', 'list', '--proj')).toBe('--project');
    const zsh = (await plumb(['completion', 'zsh'], { cwd: dir })).stdout;
    expect(zsh).toMatch(/^#compdef plumb\n/);
    expect(zsh).toContain(`'state list' '`);
    expect(zsh).toContain('--no-refresh');
    const fish = (await plumb(['completion', 'fish'], { cwd: dir })).stdout;
    expect(fish).toContain("complete -c plumb -n 'not __fish_seen_subcommand_from plan apply destroy");
    expect(fish).toContain("complete -c plumb -n '__fish_seen_subcommand_from state; and not __fish_seen_subcommand_from list show");
    expect(fish).toContain("-n '__fish_seen_subcommand_from plan' -l no-refresh");
    const other = await plumb(['completion', 'tcsh'], { cwd: dir });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('no completion for shell "tcsh"');
  });

  it('plumb output prints every output, one, one as JSON or raw, and names the outputs there are', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', port('out'));
    const none = await plumb(['output'], { cwd: dir, env: sandbox.env });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('No outputs recorded for this stack');
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const all = await plumb(['output'], { cwd: dir, env: sandbox.env });
    expect(all.stdout).toMatch(/^portUid = "[0-9a-f-]{36}"\nspeed = 1000\nwhere = \{\n {2}"location": 2,\n {2}"name": "out"\n\}\n$/);
    const uid = /portUid = "(.*)"/.exec(all.stdout)![1];
    expect((await plumb(['output', 'portUid', '--raw'], { cwd: dir })).stdout).toBe(uid);
    expect((await plumb(['output', 'portUid'], { cwd: dir })).stdout).toBe(`"${uid}"\n`);
    expect(JSON.parse((await plumb(['output', '--json'], { cwd: dir })).stdout)).toEqual({ portUid: uid, speed: 1000, where: { location: 2, name: 'out' } });
    const structured = await plumb(['output', 'where', '--raw'], { cwd: dir });
    expect(structured.code).toBe(1);
    expect(structured.stderr).toContain('output where is a mapping: --raw prints only a text, number or boolean');
    const typo = await plumb(['output', 'portUdi'], { cwd: dir });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('no output "portUdi" recorded for stack "default"');
    expect(typo.stderr).toContain('did you mean portUid? outputs: portUid, speed, where');
  });

  it('plumb init writes a starter manifest per provider that validates and plans; it never overwrites without --force', async () => {
    for (const provider of ['interconnect', 'cloud', 'pipeline']) {
      const dir = workdir(`plumb-init-${provider}-`);
      const written = await plumb(['init', provider], { cwd: dir });
      expect(written.code, written.stderr).toBe(0);
      expect(written.stdout).toContain(`Wrote plumb.yaml: a starter ${provider} manifest`);
      expect(readFileSync(join(dir, 'plumb.yaml'), 'utf8')).toMatch(/^name: plumb-init-/);
      expect((await plumb(['validate'], { cwd: dir })).code).toBe(0);
      const planned = await plumb(['plan'], { cwd: dir, env: sandbox.env });
      expect(planned.code, planned.stderr).toBe(0);
      const again = await plumb(['init', provider], { cwd: dir });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('plumb.yaml already exists');
    }
    const dir = workdir();
    const typo = await plumb(['init', 'interconect'], { cwd: dir });
    expect(typo.stderr).toContain('no starter for provider "interconect"');
    expect(typo.stderr).toContain('did you mean interconnect?');
    expect((await plumb(['init', 'cloud', '-f', 'edge.yaml', '--name', 'edge'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, 'edge.yaml'), 'utf8')).toMatch(/^name: edge\n/);
    expect(existsSync(join(dir, 'plumb.yaml'))).toBe(false);
  });
});

describe('JSON diagnostics and logs', () => {
  it('validate --json and every --json command print their problems as JSON on stdout', async () => {
    const dir = workdir();
    writeManifest(dir, 'ok.yaml', port('ok'));
    expect(JSON.parse((await plumb(['validate', 'ok.yaml', '--json'], { cwd: dir })).stdout)).toEqual({ ok: true, file: 'ok.yaml', resources: 1, variables: 0, diagnostics: [] });
    writeManifest(dir, 'bad.yaml', port('bad').replace('portSpeed: 1000', 'portSpeed: 2000'));
    for (const args of [
      ['validate', 'bad.yaml', '--json'],
      ['plan', 'bad.yaml', '--json'],
      ['apply', 'bad.yaml', '--json', '--yes'],
    ]) {
      const result = await plumb(args, { cwd: dir, env: sandbox.env });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        ok: false,
        diagnostics: [
          {
            severity: 'error',
            summary: 'portSpeed 2000 is not valid: must be one of 1000, 10000, 100000, 400000',
            address: 'port',
            file: 'bad.yaml',
            line: 5,
            column: 48,
            lineText: '    properties: { productName: bad, portSpeed: 2000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }',
          },
        ],
      });
    }
    const missing = await plumb(['plan', 'nowhere.yaml', '--json'], { cwd: dir });
    expect(JSON.parse(missing.stdout).diagnostics[0]).toMatchObject({ severity: 'error', summary: 'manifest nowhere.yaml not found' });
  });

  it('--log-format text writes one readable line per entry; json keeps pino lines', async () => {
    const dir = workdir();
    const args = ['lookup', 'interconnect:getLocation', '--arg', 'id=2', '--log-level', 'debug'];
    const text = await plumb([...args, '--log-format', 'text'], { cwd: dir, env: sandbox.env });
    expect(text.stderr).toMatch(/^\d\d:\d\d:\d\d\.\d{3} DEBUG interconnect call method=GET path=\/v3\/locations status=200$/m);
    const json = await plumb([...args, '--log-format', 'json'], { cwd: dir, env: sandbox.env });
    const line = json.stderr.split('\n').find((l) => l.includes('interconnect call'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 20, msg: 'interconnect call', path: '/v3/locations' });
    expect((await plumb([...args], { cwd: dir, env: { ...sandbox.env, PLUMB_LOG_FORMAT: 'text' } })).stderr).toMatch(/ DEBUG interconnect call /);
  });
});

describe('sandbox settings', () => {
  it('a setting given by environment variable lasts for that command; plumb sandbox settings keeps one', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', port('kept'));
    const builtIn = { PLUMB_SANDBOX_URL: undefined };
    const once = { ...builtIn, PLUMB_SANDBOX_PROVISIONING_MS: '0', PLUMB_SANDBOX_END_OF_TERM_CANCEL: 'accept' };
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: once })).code).toBe(0);
    const shown = async () => JSON.parse((await plumb(['sandbox', 'settings', '--json'], { cwd: dir, env: builtIn })).stdout);
    expect(await shown()).toEqual({ provisioningMs: 2000, refuseEndOfTermCancel: true });
    const kept = await plumb(['sandbox', 'settings', '--provisioning-ms', '0', '--end-of-term-cancel', 'accept'], { cwd: dir, env: builtIn });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toBe('kept: provisioningMs 0, end-of-term cancel accepted\n');
    expect(await shown()).toEqual({ provisioningMs: 0, refuseEndOfTermCancel: false });
    // A later command's environment still wins for that command, and is not kept either.
    expect((await plumb(['plan'], { cwd: dir, env: { ...builtIn, PLUMB_SANDBOX_PROVISIONING_MS: '5' } })).code).toBe(0);
    expect(await shown()).toEqual({ provisioningMs: 0, refuseEndOfTermCancel: false });
    const wrong = await plumb(['sandbox', 'settings', '--end-of-term-cancel', 'later'], { cwd: dir, env: builtIn });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('end-of-term cancellation "later"');
    // A running sandbox (PLUMB_SANDBOX_URL) is asked instead of a data folder.
    expect(JSON.parse((await plumb(['sandbox', 'settings', '--json'], { cwd: dir, env: sandbox.env })).stdout)).toEqual({ provisioningMs: 0, refuseEndOfTermCancel: true });
  });
});

describe('objects of a provider the manifest no longer names', () => {
  it('are planned for deletion and deleted, and validate does not need their provider', async () => {
    const dir = workdir();
    const team = '  team:\n    type: pipeline:index/group:Group\n    properties: { name: leaving_team }\n';
    writeManifest(dir, 'plumb.yaml', `${port('staying')}`.replace('outputs:', `${team}outputs:`));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    writeManifest(dir, 'plumb.yaml', port('staying'));
    expect((await plumb(['validate'], { cwd: dir, env: sandbox.env })).stdout).toContain('valid (1 resources');
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/# team will be destroyed/);
    expect(plan.stdout).toMatch(/Plan: 0 to add, 0 to change, 0 to replace, 1 to destroy/);
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect((await plumb(['state', 'list'], { cwd: dir, env: sandbox.env })).stdout).not.toContain('team');
  });

  it('an interrupted create of theirs is settled, then the object deleted', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', 'name: interrupted\nresources:\n  team:\n    type: pipeline:index/group:Group\n    properties: { name: interrupted_team }\n');
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(1) } });
    expect(killed.code).not.toBe(0);
    // Made, but the answer never reached plumb.
    expect((await pipelineCall(sandbox.url, 'POST', '/groups', { name: 'interrupted_team' })).status).toBe(201);
    writeManifest(dir, 'plumb.yaml', port('interrupted'));
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/team: an interrupted create had ordered \S+; it is adopted/);
    expect(applied.stdout).toMatch(/# team will be destroyed/);
    const groups = (await pipelineCall(sandbox.url, 'GET', '/groups')).body.data.items as Array<{ name: string }>;
    expect(groups.map((g) => g.name)).not.toContain('interrupted_team');
  });
});
