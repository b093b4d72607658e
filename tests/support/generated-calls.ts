/**
 * The calls a sandbox received, as the generated lifecycle suite counts them: which of them make an
 * object (its type's order, as its lifecycle spec names it) and which delete one (what a destroy of
 * it sent last), so that an update can be held to neither and a replacement to one of each, in
 * the order its plan gave.
 */
import type { CallRecord, Sandbox } from '@plumb/sandbox';

/** The calls the sandbox received for a provider since they were last taken, forgetting them. */
export async function takeCalls(sandbox: Sandbox, provider: string): Promise<CallRecord[]> {
  const calls = (await (await fetch(`${sandbox.url}/_sandbox/calls?provider=${provider}`)).json()) as CallRecord[];
  await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
  return calls;
}

/** A call as the faults of the sandbox match it: `METHOD /path?query`. */
export function callText(call: CallRecord): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query)) for (const v of Array.isArray(value) ? value : [value]) query.append(key, v);
  const search = query.toString();
  return `${call.method} ${call.path}${search ? `?${search}` : ''}`;
}

/** The cloud API's Action of a call, if it is one. */
function action(call: CallRecord): string | undefined {
  const value = call.query.Action;
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a call may change the world: not a read (GET, or a cloud Describe/Get/List/Check), nor
 * an access token, nor an order's validation.
 */
export function mutating(call: CallRecord): boolean {
  const name = action(call);
  if (name) return !/^(Describe|Get|List|Check)/.test(name);
  return call.method !== 'GET' && call.method !== 'HEAD' && !/\/oauth2\/token|\/validate$/.test(call.path);
}

/**
 * What a call does, without whom to: its method and path with the ids in it (any part holding a
 * digit, or one of `ids`) written `*`, and the cloud Action it names.
 */
export function signature(call: CallRecord, ids: readonly string[]): string {
  const name = action(call);
  const path = call.path
    .split('/')
    .map((part) => (/\d/.test(part) || ids.includes(part) ? '*' : part))
    .join('/');
  return `${call.method} ${path}${name ? ` Action=${name}` : ''}`;
}

/** The positions of the calls that match: a text they contain (an order), or a signature. */
export function positions(calls: CallRecord[], match: (call: CallRecord) => boolean): number[] {
  return calls.flatMap((call, i) => (match(call) ? [i] : []));
}
