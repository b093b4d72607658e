import type { Expr } from '../../manifest/ast.js';

/**
 * Where each input whose whole value is one `${...}` reference comes from, by dotted input path
 * (`aEnd.requestedProductUid` → `port.productUid`), so a plan can say where a UID came from.
 * Templates and function results are left out: their value is not the referenced one. Undefined
 * when the inputs reference nothing, which keeps a plan of many plain resources small.
 */
export function inputReferences(properties: Expr): Record<string, string> | undefined {
  const found: Record<string, string> = {};
  let any = false;
  const walk = (expr: Expr, path: string) => {
    if (expr.kind === 'ref') {
      found[path] = expr.text;
      any = true;
    } else if (expr.kind === 'object') {
      for (const entry of expr.entries) walk(entry.value, path ? `${path}.${entry.key}` : entry.key);
    } else if (expr.kind === 'list') {
      expr.items.forEach((item, i) => walk(item, `${path}[${i}]`));
    } else if (expr.kind === 'secret') {
      walk(expr.value, path);
    }
  };
  walk(properties, '');
  return any ? found : undefined;
}
