/**
 * The last guard on what plumb writes. Every secret value this process has held (an fn::secret,
 * a secret input or output, a provider key) is masked wherever its text turns up in output or
 * logs: in a remote API's error message, a check's message, a lookup's error. Values marked
 * secret are already shown as [secret]; this catches the text that escaped them.
 */

/** Shorter texts are not masked: hiding every "aws" or "100" would garble output and protect nothing. */
const MIN_LENGTH = 6;

/** The secret texts, keyed by their first two characters, so output is scanned in one pass. */
const byStart = new Map<number, string[]>();

/** Texts the manifest made plain on purpose (fn::unsecret): neither they nor a secret text inside them is masked. */
const published: string[] = [];

/** Remembers the text of a secret (a string or number in a secret value) to be masked from now on. */
export function noteSecretText(value: string | number): void {
  const text = String(value);
  add(text);
  // As it appears inside JSON output, when quoting changes it.
  const quoted = JSON.stringify(text).slice(1, -1);
  if (quoted !== text) add(quoted);
}

function add(text: string): void {
  if (text.length < MIN_LENGTH || published.some((plain) => plain.includes(text))) return;
  const key = startOf(text, 0);
  const same = byStart.get(key);
  if (!same) byStart.set(key, [text]);
  else if (!same.includes(text)) {
    same.push(text);
    // The longest first, so a secret that begins with another is masked whole.
    same.sort((a, b) => b.length - a.length);
  }
}

/**
 * Makes a text plain from now on: the value of an fn::unsecret, which the manifest's author chose
 * to show (Pulumi shows it). Any secret text it holds is forgotten with it, since it is now shown
 * whole; a secret value itself still prints as [secret].
 */
export function notePlainText(value: string | number): void {
  const text = String(value);
  if (text.length < MIN_LENGTH) return;
  published.push(text, JSON.stringify(text).slice(1, -1));
  for (const [key, same] of byStart) {
    const kept = same.filter((secret) => !published.some((plain) => plain.includes(secret)));
    if (!kept.length) byStart.delete(key);
    else if (kept.length !== same.length) byStart.set(key, kept);
  }
}

function startOf(text: string, at: number): number {
  return (text.charCodeAt(at) << 16) | text.charCodeAt(at + 1);
}

/** Whether a text holds the text of a secret this process has held. */
export function holdsSecretText(text: string): boolean {
  return byStart.size > 0 && maskSecrets(text) !== text;
}

/** The text with every known secret in it replaced by [secret]. */
export function maskSecrets(text: string): string {
  if (byStart.size === 0 || text.length < MIN_LENGTH) return text;
  let out = '';
  let from = 0;
  for (let at = 0; at + MIN_LENGTH <= text.length;) {
    const same = byStart.get(startOf(text, at));
    const hit = same?.find((secret) => text.startsWith(secret, at));
    if (hit) {
      out += `${text.slice(from, at)}[secret]`;
      at += hit.length;
      from = at;
    } else {
      at++;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Forgets every secret text: for a test that runs the stacks of many projects in one process, each
 * as a command of its own would (a command holds the secrets of one stack).
 */
export function forgetSecretTexts(): void {
  byStart.clear();
  published.length = 0;
}

/** Whether any secret is known (so a writer can skip masking altogether). */
export function anySecretKnown(): boolean {
  return byStart.size > 0;
}
