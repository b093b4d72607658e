/**
 * The docs never tell a user to wrap in `fn::secret` a field plumb already keeps secret by itself
 * (a type's `secrets.paths`): the advice is needless, and it reads as if plumb would show the
 * value otherwise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadResourceTypes } from '../../src/cli/catalog.js';

const root = resolve(import.meta.dirname, '../..');
const resourceTypes = await loadResourceTypes();

/** The last name of each secret path of every type: `password` for `bEndPartnerConfig.interfaces[*].bgpConnections[*].password`. */
const secretFields = new Set(
  [...resourceTypes.values()].flatMap((t) =>
    (t.secrets?.paths ?? []).map((path) =>
      path
        .split('.')
        .at(-1)!
        .replace(/\[\*\]$/, ''),
    ),
  ),
);

/** Markdown and YAML files of docs/ (not the generated reference) and examples/. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path.endsWith(join('docs', 'reference')) ? [] : files(path);
    return /\.(md|ya?ml)$/.test(e.name) ? [path] : [];
  });
}

/** Paragraphs (and list items) that tell the reader to write, wrap or mark something with fn::secret. */
function advice(text: string): string[] {
  return text.split(/\n\s*\n|\n(?=\s*[-*] )/).filter((p) => /\b(write|wrap|mark|use)\b[^.]*`?fn::secret/i.test(p));
}

describe('secret fields in the docs', () => {
  it('no doc or example tells to wrap in fn::secret a field a type keeps secret itself', () => {
    const found = files(join(root, 'docs'))
      .concat(files(join(root, 'examples')))
      .flatMap((file) => advice(readFileSync(file, 'utf8')).flatMap((p) => [...secretFields].filter((f) => p.includes(`\`${f}\``)).map((f) => `${relative(root, file)}: ${f}`)));
    expect(found).toEqual([]);
  });

  it('the routing guide names every secret field of a VXC partner config as kept secret by plumb', () => {
    const vxc = resourceTypes.get('interconnect:index/vxc:Vxc')!;
    const guide = readFileSync(join(root, 'docs', 'interconnect-routing.md'), 'utf8');
    const paragraph = guide.split(/\n(?=- )/).find((p) => p.includes('kept secret by plumb itself')) ?? '';
    const leaves = new Set((vxc.secrets?.paths ?? []).map((path) => path.split('.').at(-1)!));
    for (const leaf of leaves) expect(paragraph).toContain(`\`${leaf}\``);
    expect(paragraph).toContain('No\n  `fn::secret` is needed');
  });
});
