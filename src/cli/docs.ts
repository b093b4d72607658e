import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LookupFunction } from '../engine/contracts/lookup.js';
import type { ResourceType } from '../engine/contracts/resource-type.js';
import { loadFunctions, loadResourceTypes } from './catalog.js';
import { CHANGE_WORDS, describeToken, editorSchema, SECRET_WORDS, type FieldDoc, type TokenDoc } from './schema.js';

/** The reference page of every type and function (docs/reference/<provider>/<name>.md), and the manifest's JSON Schema, by relative path. */
export function referencePages(resourceTypes: ReadonlyMap<string, ResourceType>, functions: ReadonlyMap<string, LookupFunction>): Map<string, string> {
  const pages = new Map<string, string>();
  for (const token of [...resourceTypes.keys(), ...functions.keys()].sort()) {
    const doc = describeToken(token, resourceTypes, functions);
    const provider = token.split(':')[0];
    const name = token.split(':').pop()!.split('/').pop()!;
    const resource = doc.kind === 'resource';
    const nested: string[] = [];
    const body = [
      `# ${name}`,
      '',
      `\`${token}\` — ${doc.kind}`,
      '',
      doc.description,
      '',
      ...lifecycle(doc),
      `## ${resource ? 'Inputs' : 'Arguments'}`,
      '',
      ...table(doc.inputs, resource, '', nested),
      '',
      `## ${resource ? 'Outputs' : 'Result'}`,
      '',
      ...table(doc.outputs, false, resource ? 'output ' : 'result ', nested),
      '',
      ...(nested.length ? ['## Nested types', '', ...nested] : []),
    ];
    pages.set(join('docs', 'reference', provider, `${name}.md`), body.join('\n'));
  }
  pages.set(join('docs', 'reference', 'plumb.schema.json'), `${JSON.stringify(editorSchema(resourceTypes, functions), null, 2)}\n`);
  return pages;
}

/** How a resource is imported and what replaces it. */
function lifecycle(doc: TokenDoc): string[] {
  const lines: string[] = [];
  if (doc.importId) lines.push('## Import', '', '```', `plumb import NAME ${doc.token} ${doc.importId}`, '```', '');
  if (doc.replaceRules?.length)
    lines.push('## Replaced when', '', 'A change to these inputs replaces the object: the API cannot change them in place.', '', ...doc.replaceRules.map((r) => `- \`${r.path}\`: ${r.reason}`), '');
  return lines;
}

/**
 * A table of fields; the fields of each nested type go to `nested` as a section of their own
 * (a VXC's ends, each partner config kind, a prefix list's entries), which the type links to.
 */
function table(fields: FieldDoc[], withChange: boolean, prefix: string, nested: string[], path = ''): string[] {
  const rows = [`| name | type | required | ${withChange ? 'on change | ' : ''}description |`, `|---|---|---|${withChange ? '---|' : ''}---|`];
  for (const f of fields) {
    const at = path ? `${path}.${f.name}` : f.name;
    let type = f.type.replace(/\|/g, '\\|');
    if (f.fields || f.variants) {
      const heading = `${prefix}${at}`;
      type = `[${type}](#${anchor(heading)})`;
      // This type's section comes before those of the types inside it.
      const sections: string[] = [];
      const deeper: string[] = [];
      if (f.fields) sections.push(`### ${heading}`, '', ...table(f.fields, false, prefix, deeper, at), '');
      if (f.variants)
        sections.push(
          `### ${heading}`,
          '',
          `One of ${f.variants.length} kinds, told apart by ${f.variants[0].name.split(':')[0]}:`,
          '',
          ...f.variants.map((v) => `- [${v.name}](#${anchor(`${heading} (${v.name})`)})`),
          '',
        );
      // Types inside a kind are named by it (two kinds may each have `interfaces`).
      for (const v of f.variants ?? []) sections.push(`### ${heading} (${v.name})`, '', ...table(v.fields, false, prefix, deeper, `${at}[${v.name.split(': ').pop()}]`), '');
      nested.push(...sections, ...deeper);
    }
    const words = [
      f.secret ? `${SECRET_WORDS[f.secret]}` : '',
      f.description,
      f.allowed ? `One of ${f.allowed.join(', ')}.` : '',
      f.default !== undefined ? `Default ${JSON.stringify(f.default)}.` : '',
    ]
      .filter(Boolean)
      .join(' ');
    rows.push(`| \`${f.name}\` | ${type} | ${f.required ? 'yes' : 'no'} | ${withChange ? `${CHANGE_WORDS[f.change ?? 'update']} | ` : ''}${words.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`);
  }
  return rows;
}

/** The anchor GitHub gives a heading. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

/** Writes the pages under `root`; returns the files whose content changed. */
export function writeReference(root: string, resourceTypes: ReadonlyMap<string, ResourceType>, functions: ReadonlyMap<string, LookupFunction>): string[] {
  const changed: string[] = [];
  for (const [file, text] of referencePages(resourceTypes, functions)) {
    const full = join(root, file);
    if (existsSync(full) && readFileSync(full, 'utf8') === text) continue;
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
    changed.push(file);
  }
  return changed;
}

if (process.argv[1] && resolve(process.argv[1]).endsWith(join('dist', 'cli', 'docs.js'))) {
  const changed = writeReference(process.cwd(), await loadResourceTypes(), await loadFunctions());
  process.stdout.write(`${changed.length ? `updated ${changed.length} pages` : 'reference docs are up to date'}\n`);
}
