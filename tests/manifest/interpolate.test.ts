import { describe, expect, it } from 'vitest';
import { evaluate, EvalError, type Scope } from '../../src/engine/evaluation/evaluate.js';
import { parseInterpolation, parseAccess, InterpolationError } from '../../src/manifest/interpolate.js';
import type { Expr } from '../../src/manifest/ast.js';
import { Secret, Unknown } from '../../src/kernel/values.js';

const pos = { line: 1, column: 1 };

describe('interpolation syntax', () => {
  const cases: Array<[string, string, unknown]> = [
    ['plain text stays one literal', 'hello', ['hello']],
    ['a lone reference keeps its parts', '${port.productUid}', [{ root: 'port', path: ['productUid'] }]],
    ['$$ is a literal dollar, so $${x} is text', 'cost $${x}', ['cost ${x}']],
    ['text around a reference', 'a-${b}-c', ['a-', { root: 'b', path: [] }, '-c']],
    ['indexes and quoted keys', '${x.a[0]["b.c"]}', [{ root: 'x', path: ['a', 0, 'b.c'] }]],
    ['a dotted reference with dashes and digits', '${my-port_2.aEnd.vlan}', [{ root: 'my-port_2', path: ['aEnd', 'vlan'] }]],
    ['spaces inside the braces are trimmed', '${ port.productUid }', [{ root: 'port', path: ['productUid'] }]],
    ['a reference then text is a template', '${port.id}/x', [{ root: 'port', path: ['id'] }, '/x']],
    ['a dollar inside a name belongs to the name', '${a$b.c}', [{ root: 'a$b', path: ['c'] }]],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => {
      const parts = parseInterpolation(text, pos).map((p) => (typeof p === 'string' ? p : { root: p.root, path: p.path }));
      expect(parts).toEqual(expected);
    });
  }
  it('an unterminated ${ is an error at its column', () => {
    expect(() => parseInterpolation('ab${port', pos)).toThrow(InterpolationError);
    try {
      parseInterpolation('ab${port', pos);
    } catch (e) {
      expect((e as InterpolationError).offset).toBe(2);
    }
  });
  it('an empty ${} is an error', () => expect(() => parseInterpolation('${}', pos)).toThrow(/empty/));
  it('an empty name between dots is an error', () => {
    expect(() => parseInterpolation('${a..b}', pos)).toThrow(/property name/);
    expect(() => parseInterpolation('${a.}', pos)).toThrow(/property name/);
    expect(() => parseInterpolation('${.a}', pos)).toThrow(/not a valid reference/);
  });
  it('a reference keeps the text between the braces and its column', () => {
    expect(parseInterpolation('${port.productUid}', { line: 3, column: 7 })).toEqual([{ kind: 'ref', root: 'port', path: ['productUid'], text: 'port.productUid', pos: { line: 3, column: 7 } }]);
    expect(parseInterpolation('x ${ port.id }', { line: 3, column: 7 })).toEqual(['x ', { kind: 'ref', root: 'port', path: ['id'], text: 'port.id', pos: { line: 3, column: 9 } }]);
  });
  it('an index cannot start a reference', () => expect(() => parseAccess('[0].a')).toThrow(/cannot start/));
});

describe('expression evaluation', () => {
  const scope = (values: Record<string, unknown>): Scope => ({
    dir: '/tmp',
    resolve: async (root) => {
      if (!(root in values)) throw new EvalError(pos, `"${root}" is not defined`);
      return values[root];
    },
    invoke: async () => ({ id: 7 }),
  });
  const ref = (root: string, path: Array<string | number>) => ({ kind: 'ref' as const, root, path, text: [root, ...path].join('.'), pos });

  it('a property of an unknown value is unknown, shown as its source', async () => {
    const value = await evaluate(ref('port', ['productUid']), scope({ port: new Unknown('port') }));
    expect(value).toBeInstanceOf(Unknown);
    expect((value as Unknown).source).toBe('port.productUid');
  });
  it('a template with an unknown part is unknown', async () => {
    const value = await evaluate({ kind: 'template', parts: ['x-', ref('port', ['id'])], pos }, scope({ port: new Unknown() }));
    expect(value).toBeInstanceOf(Unknown);
  });
  it('a template with a secret part stays secret', async () => {
    const value = await evaluate({ kind: 'template', parts: ['k=', ref('key', [])], pos }, scope({ key: new Secret('s3cr3t') }));
    expect(value).toBeInstanceOf(Secret);
    expect((value as Secret).value).toBe('k=s3cr3t');
    expect(JSON.stringify(value)).toBe('"[secret]"');
  });
  it('indexing past the end names the list length', async () => {
    await expect(evaluate(ref('xs', [3]), scope({ xs: [1] }))).rejects.toThrow(/out of range \(the list has 1 items\)/);
  });
  it('fn::invoke return picks one field', async () => {
    const value = await evaluate({ kind: 'invoke', fn: 'interconnect:index/getLocation:getLocation', args: { kind: 'object', entries: [], pos }, ret: 'id', pos }, scope({}));
    expect(value).toBe(7);
  });
  it('fn::join and fn::split are inverse', async () => {
    const joined = await evaluate({ kind: 'builtin', name: 'join', arg: { kind: 'literal' as const, value: null, pos }, pos } as Expr, scope({})).catch((e) => e);
    expect(joined).toBeInstanceOf(EvalError);
    const list = {
      kind: 'list' as const,
      items: [
        { kind: 'literal' as const, value: '-', pos },
        { kind: 'literal' as const, value: 'a-b', pos },
      ],
      pos,
    };
    expect(await evaluate({ kind: 'builtin', name: 'split', arg: list, pos } as Expr, scope({}))).toEqual(['a', 'b']);
  });
});
