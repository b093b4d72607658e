import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { functions, resourceTypes } from '../registry.js';
import { CHANGE_WORDS, describeToken, type FieldDoc } from './schema.js';

/** The reference page of every type and function, keyed by relative path (docs/reference/<provider>/<name>.md). */
export function referencePages(): Map<string, string> {
  const pages = new Map<string, string>();
  for (const token of [...resourceTypes.keys(), ...functions.keys()].sort()) {
    const doc = describeToken(token);
    const provider = token.split(':')[0];
    const name = token.split(':').pop()!.split('/').pop()!;
    const file = join('docs', 'reference', provider, `${name}.md`);
    const table = (fields: FieldDoc[], withChange: boolean) => [
      `| name | type | required | ${withChange ? 'on change | ' : ''}description |`,
      `|---|---|---|${withChange ? '---|' : ''}---|`,
      ...fields.map(
        (f) =>
          `| \`${f.name}\` | ${f.type.replace(/\|/g, '\\|')} | ${f.required ? 'yes' : 'no'} | ${withChange ? `${CHANGE_WORDS[f.change ?? 'update']} | ` : ''}${[f.description, f.allowed ? `One of ${f.allowed.join(', ')}.` : '', f.default !== undefined ? `Default ${JSON.stringify(f.default)}.` : ''].filter(Boolean).join(' ').replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`,
      ),
    ];
    const body = [
      `# ${name}`,
      '',
      `\`${token}\` — ${doc.kind}`,
      '',
      doc.description,
      '',
      `## ${doc.kind === 'resource' ? 'Inputs' : 'Arguments'}`,
      '',
      ...table(doc.inputs, doc.kind === 'resource'),
      '',
      `## ${doc.kind === 'resource' ? 'Outputs' : 'Result'}`,
      '',
      ...table(doc.outputs, false),
      '',
    ];
    pages.set(file, body.join('\n'));
  }
  return pages;
}

/** Writes the pages under `root`; returns the files whose content changed. */
export function writeReference(root: string): string[] {
  const changed: string[] = [];
  for (const [file, text] of referencePages()) {
    const full = join(root, file);
    if (existsSync(full) && readFileSync(full, 'utf8') === text) continue;
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
    changed.push(file);
  }
  return changed;
}

if (process.argv[1] && resolve(process.argv[1]).endsWith(join('dist', 'cli', 'docs.js'))) {
  const changed = writeReference(process.cwd());
  process.stdout.write(`${changed.length ? `updated ${changed.length} pages` : 'reference docs are up to date'}\n`);
}
