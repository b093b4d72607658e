import { describe, expect, it } from 'vitest';
import { plumb, workdir } from '../support/cli.js';

/** The global flags, as plumb --help lists them once. */
const GLOBAL = ['--file', '--stack', '--state', '--log-level', '--log-format', '--log-file', '--no-color'];

/** The names listed under every "... commands:" (or "Commands:") heading of a help text. */
function subcommands(help: string): string[] {
  const names: string[] = [];
  let inCommands = false;
  for (const line of help.split('\n')) {
    if (/^\S.*ommands:$/.test(line)) inCommands = true;
    else if (/^\S/.test(line) || line === '') inCommands = false;
    else if (inCommands) {
      const name = /^ {2}(\S+)/.exec(line)?.[1];
      if (name && name !== 'help') names.push(name);
    }
  }
  return names;
}

/** The flags a help text's option lines name (long and short). */
function flagsOf(help: string): string[] {
  return [...help.matchAll(/^ {2}(-\w)?,? ?(--[\w-]+)?/gm)].flatMap((m) => [m[1], m[2]]).filter((f): f is string => Boolean(f));
}

/** Every command's path and help text, plumb's own first. */
async function everyHelp(): Promise<Array<{ path: string[]; help: string }>> {
  const cwd = workdir();
  const out: Array<{ path: string[]; help: string }> = [];
  const visit = async (path: string[]) => {
    const { stdout, code } = await plumb([...path, '--help'], { cwd });
    expect(code, path.join(' ')).toBe(0);
    out.push({ path, help: stdout });
    for (const name of subcommands(stdout)) await visit([...path, name]);
  };
  await visit([]);
  return out;
}

describe('--help', () => {
  it('lists the global flags once, groups the commands, and every command ends with examples of itself that use only its flags', async () => {
    const all = await everyHelp();
    expect(all.length).toBeGreaterThan(25);
    const [root, ...commands] = all;
    expect(root.help.match(/^Global options:$/gm)).toHaveLength(1);
    for (const flag of GLOBAL) expect(root.help).toContain(flag);
    expect(root.help).toMatch(/^Core commands:\n {2}plan .*\n {2}apply .*\n {2}destroy /m);
    expect(root.help).toMatch(/^Inspect commands:$/m);
    expect(root.help).toMatch(/^State commands:$/m);
    for (const { path, help } of commands) {
      const name = path.join(' ');
      const options = help.slice(0, help.indexOf('\nGlobal options:'));
      // import's --file is its list of imports (its manifest is -f).
      for (const flag of GLOBAL.filter((f) => name !== 'import' || f !== '--file')) expect(options, `${name} --help repeats ${flag}`).not.toMatch(new RegExp(`^ +(-f, )?${flag}\\b`, 'm'));
      expect(help, name).toContain('\nGlobal options: -f, --stack, --state, --log-level, --log-format, --log-file, --no-color (see plumb --help)\n');
      const examples = /\nExamples:\n((?: {2}.*\n?)+)$/.exec(help)?.[1].trimEnd().split('\n');
      expect(examples, `${name} --help has no examples at its end`).toBeDefined();
      const own = [...flagsOf(options), ...GLOBAL, '-f', '-y'];
      for (const example of examples ?? []) {
        // The command line up to a pipe or redirection: `plumb graph | dot -Tsvg`, `source <(plumb completion bash)`.
        const words = example
          .replace(/#.*$/, '')
          .trim()
          .replace(/^source <\(|\)$/g, '')
          .split(/[|<>]/)[0]
          .trim()
          .split(/\s+/);
        const at = words.indexOf('plumb');
        expect(words.slice(at + 1, at + 1 + path.length), `${name}: ${example}`).toEqual(path);
        for (const word of words.filter((w) => w.startsWith('-'))) expect(own, `${name}: ${example} uses ${word}`).toContain(word);
      }
    }
  }, 120_000);

  it('plumb help shows what plumb --help shows', async () => {
    const cwd = workdir();
    expect((await plumb(['help'], { cwd })).stdout).toBe((await plumb(['--help'], { cwd })).stdout);
  });

  it('a global flag still works after a command whose help no longer lists it', async () => {
    const result = await plumb(['schema', '--no-color', '--log-level', 'silent', '--stack', 'x'], { cwd: workdir() });
    expect(result.code, result.stderr).toBe(0);
  });
});
