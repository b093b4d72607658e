/**
 * Every RetCode the cloud sandbox answers with is one the client classifies by name: a code left
 * to the size rule reads as a server failure, so a refusal (an EIP bound to what cannot take it)
 * would be sent again and an order the API refused kept as one that may have gone through.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { isKnownRetCode, kindForRetCode } from '../../../src/providers/cloud/retcodes.js';

const SANDBOX = join(import.meta.dirname, '../../../packages/sandbox/src/cloud');

/** The RetCodes the sandbox's Actions throw: literal, or through a named constant (of the file, else of another). */
function sandboxCodes(): Map<number, string> {
  const out = new Map<number, string>();
  const files = readdirSync(SANDBOX).filter((f) => f.endsWith('.ts'));
  const texts = new Map(files.map((file) => [file, readFileSync(join(SANDBOX, file), 'utf8')]));
  const constants = (text: string) => [...text.matchAll(/const ([A-Z_]+) = (\d+);/g)].map((m): [string, number] => [m[1], Number(m[2])]);
  const everywhere = new Map([...texts.values()].flatMap(constants));
  for (const [file, text] of texts) {
    const named = new Map([...everywhere, ...constants(text)]);
    for (const m of text.matchAll(/new ApiError\(\s*(\d+|[A-Z_]+)\s*,/g)) {
      const code = /^\d+$/.test(m[1]) ? Number(m[1]) : named.get(m[1]);
      if (code === undefined) throw new Error(`${file}: ApiError(${m[1]}) names no constant of the file`);
      out.set(code, file);
    }
  }
  return out;
}

it('classifies every RetCode the sandbox answers with by name, none by its size alone', () => {
  const codes = sandboxCodes();
  expect(codes.size).toBeGreaterThan(30);
  expect([...codes].filter(([code]) => !isKnownRetCode(code)).map(([code, file]) => `${code} (${file})`)).toEqual([]);
});

it('takes a bind to what cannot be bound as a refusal, and the last EIP of a NAT gateway or one on a tunnelled VPN gateway as in use', () => {
  expect(kindForRetCode(4218, 'BindEIP')).toBe('invalid');
  expect(kindForRetCode(4235, 'UnBindEIP')).toBe('conflict');
  expect(kindForRetCode(4238, 'UnBindEIP')).toBe('conflict');
  // A subnet still letting go of its resources passes by itself: it is sent again.
  expect(kindForRetCode(4411, 'DeleteSubnet')).toBe('unavailable');
});
