/**
 * Request flattening and signing for the cloud API.
 *
 * Every call is a flat map of `key → value` (arrays become `X.0`, `X.1`…, nested objects
 * `X.Sub`); the signature is SHA1 over the byte-sorted `key + value` pairs with the private key
 * appended. Values are written exactly as they are sent, so the signature and the body agree.
 */
import { createHash } from 'node:crypto';

/** A parameter value before flattening. `undefined`, `null` and `''` are never sent. */
export type ParamValue = string | number | boolean | null | undefined | ParamValue[] | { [key: string]: ParamValue };

/** Parameters of one call, before flattening. */
export type Params = Record<string, ParamValue>;

/** A flattened parameter: what goes on the wire under one key. */
export type FlatValue = string | number | boolean;

/**
 * Flattens nested arrays and objects into `X.0`, `X.0.Key`, `X.Sub` keys. Empty strings and
 * missing values are dropped, as the reference SDK does, so an empty string is never signed.
 */
export function flattenParams(params: Params): Record<string, FlatValue> {
  const out: Record<string, FlatValue> = {};
  const visit = (prefix: string, value: ParamValue): void => {
    if (value === undefined || value === null || value === '') return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(`${prefix}.${i}`, item));
    } else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(`${prefix}.${k}`, v);
    } else {
      if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`parameter ${prefix} is not a finite number`);
      out[prefix] = value;
    }
  };
  for (const [key, value] of Object.entries(params)) visit(key, value);
  return out;
}

/**
 * A value as it is written on the wire and in the string to sign: booleans as `true`/`false`,
 * numbers in plain decimal (never an exponent; `42.0` is `42`).
 */
export function wireString(value: FlatValue): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
    return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  }
  return value;
}

/** The string that is hashed: sorted `key + value` pairs, no separators, then the private key. */
export function stringToSign(flat: Record<string, FlatValue>, privateKey: string): string {
  // Byte order (not locale order): `Domain.10` sorts before `Domain.2`, as the API expects.
  const keys = Object.keys(flat)
    .filter((k) => k !== 'Signature')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((k) => k + wireString(flat[k])).join('') + privateKey;
}

/** Lowercase hex SHA1 signature of the flattened parameters (`Signature` itself excluded). */
export function signParams(flat: Record<string, FlatValue>, privateKey: string): string {
  return createHash('sha1').update(stringToSign(flat, privateKey), 'utf8').digest('hex');
}

/** The form body for flattened, signed parameters (keys sorted, as the reference SDK sends them). */
export function formBody(flat: Record<string, FlatValue>): string {
  const form = new URLSearchParams();
  for (const key of Object.keys(flat).sort()) form.append(key, wireString(flat[key]));
  return form.toString();
}
