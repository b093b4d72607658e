import type { CrossCheckView, CrossProblem } from '../../engine/contracts/resource-type.js';
import { closestHint } from '../../kernel/did-you-mean.js';
import { reveal, Unknown } from '../../kernel/values.js';

/*
 * What a connection's captured schema already says about a ConnectionSchemaConfig, checked
 * before any call: a schema or table its source does not have is refused at its path, with the
 * closest names it has. The API refuses the whole PATCH for it at apply. The schema is read once
 * per plan and connection (the getConnectionSchemas lookup), for a declaration the plan changes;
 * a connection not made yet, or whose schema was never captured, is not checked (apply meets the
 * API's own answer).
 */

const SCHEMAS = 'pipeline:index/getConnectionSchemas:getConnectionSchemas';

type Source = Map<string, Set<string>>;

/** The schemas and their tables of a getConnectionSchemas result; undefined for an answer that is not one. */
function sourceOf(found: unknown): Source | undefined {
  const schemas = (found as { schemas?: unknown } | undefined)?.schemas;
  if (!Array.isArray(schemas)) return undefined;
  return new Map((schemas as Array<{ name: string; tables?: Array<{ name: string }> }>).map((s) => [s.name, new Set((s.tables ?? []).map((t) => t.name))]));
}

/** The id of the connection a value names: a literal id, or the recorded id of the resource it references. */
function connectionIdOf(value: unknown, view: CrossCheckView): string | undefined {
  const plain = reveal(value);
  if (typeof plain === 'string' && plain !== '') return plain;
  if (value instanceof Unknown) return view.resolve(value)?.recorded?.id;
  return undefined;
}

/** A ConnectionSchemaConfig's cross-check: every schema and table it names is one the source has. */
export async function schemaNamesCheck(desired: Record<string, unknown>, view: CrossCheckView): Promise<CrossProblem[]> {
  const schemas = reveal(desired.schemas);
  if (!schemas || typeof schemas !== 'object') return [];
  const was = view.resources.find((r) => r.address === view.address)?.recorded?.inputs;
  if (was && JSON.stringify(reveal(was.schemas)) === JSON.stringify(schemas)) return [];
  const id = connectionIdOf(desired.connectionId, view);
  const lookup = view.lookup;
  if (!id || !lookup) return [];
  const source = await view.memo(`pipeline: source schemas of ${id}`, () => lookup(SCHEMAS, { id }).then(sourceOf, () => undefined));
  if (!source) return [];
  const problems: CrossProblem[] = [];
  for (const [schema, settings] of Object.entries(schemas as Record<string, { tables?: Record<string, unknown> }>)) {
    const tables = source.get(schema);
    if (!tables) {
      problems.push({
        path: ['schemas', schema],
        message: `connection ${id}'s source has no schema "${schema}"${closestHint(schema, source.keys())}`,
        detail: `its schemas: ${[...source.keys()].join(', ') || 'none'}`,
      });
      continue;
    }
    for (const table of Object.keys(settings?.tables ?? {})) {
      if (!tables.has(table)) {
        problems.push({
          path: ['schemas', schema, 'tables', table],
          message: `schema "${schema}" of connection ${id}'s source has no table "${table}"${closestHint(table, tables)}`,
          detail: 'names are case-sensitive, as the source has them; getConnectionSchemas lists them',
        });
      }
    }
  }
  return problems;
}
