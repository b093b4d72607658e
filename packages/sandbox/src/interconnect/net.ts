/** Address family of a CIDR or address string. */
export type Family = 'IPv4' | 'IPv6';

/** True for a dotted-quad IPv4 address. */
export function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** True for an IPv6 address in any of its textual forms (checked loosely: hex groups and one `::`). */
export function isIPv6(s: string): boolean {
  if (!s.includes(':') || s.split('::').length > 2) return false;
  const groups = s.split(':').filter((g) => g !== '');
  return groups.length <= 8 && groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g) || isIPv4(g));
}

/** Parses `address/length`; undefined when it is not a valid CIDR of either family. */
export function parseCidr(s: unknown): { family: Family; address: string; length: number } | undefined {
  if (typeof s !== 'string') return undefined;
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(s.trim());
  if (!m) return undefined;
  const length = Number(m[2]);
  if (isIPv4(m[1]) && length <= 32) return { family: 'IPv4', address: m[1], length };
  if (isIPv6(m[1]) && length <= 128) return { family: 'IPv6', address: m[1], length };
  return undefined;
}

/** True for a MAC address written with `:` or `-` separators. */
export function isMac(s: unknown): boolean {
  return typeof s === 'string' && /^[0-9a-f]{2}([:-][0-9a-f]{2}){5}$/i.test(s);
}

/** The address `offset` hosts into an IPv4 network (for deterministic IX and transit addressing). */
export function ipv4At(cidr: string, offset: number): string {
  const [addr] = cidr.split('/');
  const n = addr.split('.').reduce((acc, p) => acc * 256 + Number(p), 0) + offset;
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}
