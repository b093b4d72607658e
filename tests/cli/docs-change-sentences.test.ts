/**
 * How a change of each input is made is said once, by a sentence generated from the type's
 * replace rules: every input of every registered type (the next one added included) gets one that
 * agrees with the rules, and no input's own description says it again by hand, where it could
 * disagree with what the plan does.
 */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { changeOf, changeSentence, describeToken, editorSchema } from '../../src/cli/schema.js';
import { loadFunctions, loadResourceTypes } from '../../src/cli/catalog.js';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';

const resourceTypes = await loadResourceTypes();
const functions = await loadFunctions();

/** The descriptions an input's own schema gives it, by input name. */
function ownDescriptions(type: ResourceType): Record<string, string> {
  const json = z.toJSONSchema(type.inputs, { unrepresentable: 'any', io: 'input' }) as { properties?: Record<string, { description?: string }> };
  return Object.fromEntries(Object.entries(json.properties ?? {}).map(([name, prop]) => [name, prop.description ?? '']));
}

/** What the rules say a change of `name` does, read from them directly. */
function expected(type: ResourceType, name: string): string {
  if (type.replace.on.some((r) => r.path === name || r.path.startsWith(`${name}.`))) return 'replace';
  if (type.replace.when?.inputs.includes(name)) return 'sometimes';
  return type.diff?.recordOnly?.includes(name) ? 'recorded' : 'update';
}

/** The phrases the generated sentence says: written by hand in a description, they repeat it. */
const SAID_BY_THE_SENTENCE = /\b(changed|updated|renamed) in place\b|\b(changing it|a change) replaces\b/i;

describe("every input says how a change of it is made, as its type's rules say", () => {
  for (const [token, type] of resourceTypes) {
    it(token, () => {
      const own = ownDescriptions(type);
      const docs = describeToken(token, resourceTypes, functions).inputs;
      const editor = (editorSchema(resourceTypes, functions).definitions as Record<string, { properties: Record<string, { description: string }> }>)[token.replace(/\//g, '.')];
      expect(docs.map((f) => f.name)).toEqual(Object.keys(own));
      const problems: string[] = [];
      const check = (ok: boolean, problem: string) => ok || problems.push(problem);
      for (const field of docs) {
        const change = expected(type, field.name);
        const sentence = changeSentence(type, field.name);
        const text = own[field.name];
        check(changeOf(type, field.name) === change, `${field.name}: marked ${changeOf(type, field.name)}, the rules say ${change}`);
        check(field.description?.endsWith(sentence) === true, `${field.name}: the docs do not end with "${sentence}"`);
        check(editor.properties[field.name]?.description?.endsWith(sentence) === true, `${field.name}: the editor schema does not end with "${sentence}"`);
        const rule = type.replace.on.find((r) => r.path === field.name || r.path.startsWith(`${field.name}.`));
        check(!rule || sentence.includes(rule.reason), `${field.name}: the sentence leaves out the rule's reason`);
        check(!SAID_BY_THE_SENTENCE.test(text), `${field.name}: "${text}" says by hand what the sentence says`);
        // Only an input replaced for some values says which; another one speaking of replacement could contradict its rule.
        if (change === 'sometimes') check(/replace|allocates|new /i.test(text), `${field.name}: "${text}" does not say which values replace it`);
        else check(!(change === 'replace' ? /in place/i : /replac/i).test(text), `${field.name}: "${text}" speaks of a change that is ${change}`);
      }
      expect(problems).toEqual([]);
    });
  }
});
