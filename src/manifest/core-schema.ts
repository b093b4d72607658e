/**
 * The YAML 1.2 core schema, which decides what a plain (unquoted) scalar means: null, a
 * boolean, an integer, a float or else a string. The block reader must agree with `yaml` on
 * every plain scalar it reads, so the rules and their order are `yaml`'s.
 */

/** The YAML 1.2 core schema's patterns, in `yaml`'s order (made once: a regex literal is a new object each time it is evaluated). */
const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const OCTAL = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const SPECIAL_FLOAT = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const EXP_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** The value of a plain scalar under the YAML 1.2 core schema, its rules tested in `yaml`'s order. */
export function coreValue(text: string): unknown {
  // Text starting with any other letter is a string under every rule below; most text is.
  const first = text.charCodeAt(0);
  const letter = (first >= 97 && first <= 122) || (first >= 65 && first <= 90);
  if (letter && !'nNtTfF'.includes(text[0])) return text;
  // Plain decimal digits are an int under every rule that could match them first.
  if (first >= 48 && first <= 57 && isDigits(text)) return parseInt(text, 10);
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (OCTAL.test(text)) return parseInt(text.substring(2), 8);
  if (INT.test(text)) return parseInt(text, 10);
  if (HEX.test(text)) return parseInt(text.substring(2), 16);
  if (SPECIAL_FLOAT.test(text)) {
    return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (EXP_FLOAT.test(text)) return parseFloat(text);
  if (FLOAT.test(text)) return parseFloat(text);
  return text;
}

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
