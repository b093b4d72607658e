/**
 * CIDR arithmetic for prefix filter lists: enough to tell a canonical network prefix from one with
 * host bits set and to name the network the user most likely meant. Addresses are BigInts so
 * IPv4 and IPv6 share one code path.
 */

/** Address family of a prefix filter list. */
export type Family = 'IPv4' | 'IPv6';

/** A parsed `address/length`. */
export interface Cidr {
  family: Family;
  address: bigint;
  length: number;
}

/** Bits in an address of the family. */
export function familyBits(family: Family): number {
  return family === 'IPv4' ? 32 : 128;
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  // Leading zeros are refused: some tools read them as octal, so the meaning would be unclear.
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

function parseIPv6(text: string): bigint | undefined {
  if (!text.includes(':') || text.split('::').length > 2) return undefined;
  let tail: bigint[] = [];
  let body = text;
  // An embedded IPv4 address (::ffff:10.0.0.1) stands for the last two groups.
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = parseIPv4(v4[2]);
    if (n === undefined) return undefined;
    tail = [n >> 16n, n & 0xffffn];
    body = v4[1].endsWith('::') ? v4[1] : v4[1].slice(0, -1);
  }
  const [head, rest] = body.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  if (![...left, ...right].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  const known = left.length + right.length + tail.length;
  if (rest === undefined ? known !== 8 : known > 7) return undefined;
  const values = [...left.map((g) => BigInt(`0x${g}`)), ...Array<bigint>(8 - known).fill(0n), ...right.map((g) => BigInt(`0x${g}`)), ...tail];
  return values.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** Parses `address/length` of either family; undefined when it is not a CIDR prefix. */
export function parseCidr(text: string): Cidr | undefined {
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(text.trim());
  if (!m) return undefined;
  const length = Number(m[2]);
  const v4 = parseIPv4(m[1]);
  if (v4 !== undefined) return length <= 32 ? { family: 'IPv4', address: v4, length } : undefined;
  const v6 = parseIPv6(m[1]);
  if (v6 !== undefined) return length <= 128 ? { family: 'IPv6', address: v6, length } : undefined;
  return undefined;
}

/** The network of a prefix: its address with every host bit cleared. */
export function networkOf(c: Cidr): bigint {
  const bits = BigInt(familyBits(c.family) - c.length);
  return (c.address >> bits) << bits;
}

/** An address in its usual text form (IPv6 compressed as RFC 5952 says). */
export function formatAddress(family: Family, address: bigint): string {
  if (family === 'IPv4') return [24n, 16n, 8n, 0n].map((s) => String((address >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((address >> BigInt(16 * (7 - i))) & 0xffffn));
  // Compress the longest run of two or more zero groups (the first one on a tie).
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len && j - i >= 2) best = { at: i, len: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
}

/**
 * Why `text` is not a canonical prefix of `family` (undefined when it is). With no family known
 * yet, only the prefix itself is checked.
 */
export function prefixProblem(text: string, family: Family | undefined): string | undefined {
  const c = parseCidr(text);
  if (!c) return `"${text}" is not a CIDR prefix such as ${family === 'IPv6' ? '2001:db8::/32' : '10.0.0.0/8'}`;
  if (family && c.family !== family) return `${text} is an ${c.family} prefix but the list's addressFamily is ${family}`;
  const network = networkOf(c);
  if (network !== c.address) return `${text} has host bits set; did you mean ${formatAddress(c.family, network)}/${c.length}?`;
  return undefined;
}
