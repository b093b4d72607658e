import type { Diagnostic } from '../../kernel/diagnostics.js';
import { entryPos, type Manifest } from '../../manifest/ast.js';
import { closestName } from '../../kernel/did-you-mean.js';
import type { EngineCatalog } from '../contracts/catalog.js';
import { fieldsAt } from './messages.js';

/**
 * `ignoreChanges` and `replaceOnChanges` paths checked against the resource's type: a misspelt
 * path would otherwise ignore nothing (and a change meant to be ignored would be made) or force
 * nothing, without a word.
 */
export function optionPathProblems(manifest: Manifest, catalog: EngineCatalog): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const decl of Object.values(manifest.resources)) {
    const type = catalog.resourceTypes.get(decl.token);
    if (!type) continue;
    for (const option of ['ignoreChanges', 'replaceOnChanges'] as const) {
      for (const [index, path] of decl.options[option].entries()) {
        const problem = pathProblem(type.inputs, path);
        if (!problem) continue;
        diagnostics.push({
          severity: 'error',
          summary: `option ${option}: "${path}": ${type.token} has no property ${problem.summary}`,
          detail: problem.detail,
          address: decl.address,
          pos: { file: manifest.file, ...entryPos(decl, option, index) },
        });
      }
    }
  }
  return diagnostics;
}

/**
 * What is wrong with a property path (`a.b`, `a[0].b`, `a[*].b`), as far as the schema says: each
 * name must be a field of the object it is in. Where the schema does not say which fields there
 * are (a union whose variant the path does not choose, a free-form mapping) the rest is accepted.
 */
function pathProblem(schema: Parameters<typeof fieldsAt>[0], path: string): { summary: string; detail: string } | undefined {
  const steps = path.split(/\.|\[([^\]]*)\]/).filter((s) => s !== undefined && s !== '');
  const walked: Array<string | number> = [];
  for (const step of steps) {
    if (/^(\d+|\*)$/.test(step)) {
      walked.push(0);
      continue;
    }
    const fields = fieldsAt(schema, walked);
    if (!fields.length) return undefined;
    if (!fields.includes(step)) {
      const hint = closestName(step, fields);
      return {
        summary: `"${step}"${walked.length ? ` in ${walked.join('.').replace(/\.0/g, '[*]')}` : ''}`,
        detail: `${hint ? `did you mean "${[...walked, hint].join('.').replace(/\.0/g, '[*]')}"? ` : ''}properties there: ${fields.join(', ')}`,
      };
    }
    walked.push(step);
  }
  return undefined;
}
