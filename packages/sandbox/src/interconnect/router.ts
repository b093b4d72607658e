import type { SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import type { Clock } from './provisioning.js';
import type { InterconnectDb } from './store.js';

/** What a handler gets: the request, its path parameters, the data and the moment of the call. */
export interface Ctx {
  req: SandboxRequest;
  params: Record<string, string>;
  db: InterconnectDb;
  world: SandboxWorld;
  clock: Clock;
}

/** A handler answers or throws an ApiError; it mutates `ctx.db` in place and the router saves. */
export type Handler = (ctx: Ctx) => SandboxResponse;

/** One endpoint: method, a pattern such as `/v2/product/:uid/tags` or `/v2/secure/:partner/*key`, and its handler. */
export interface Route {
  method: string;
  pattern: string;
  handler: Handler;
}

/** The result of matching a path against the table. */
export type Match = { route: Route; params: Record<string, string> } | { methodNotAllowed: true } | undefined;

/** One segment of a pattern: a literal (lower case), a `:param` or a final `*splat` (by name). */
interface Part {
  kind: 'literal' | 'param' | 'splat';
  text: string;
}

/** Patterns split once, not once per request and route: routing was a visible share of a call's cost. */
const compiled = new Map<string, Part[]>();

function partsOf(pattern: string): Part[] {
  let parts = compiled.get(pattern);
  if (!parts) {
    parts = pattern
      .split('/')
      .filter(Boolean)
      .map((p): Part => (p.startsWith(':') ? { kind: 'param', text: p.slice(1) } : p.startsWith('*') ? { kind: 'splat', text: p.slice(1) } : { kind: 'literal', text: p.toLowerCase() }));
    compiled.set(pattern, parts);
  }
  return parts;
}

/**
 * `:name` matches one segment; a final `*name` matches the rest (a Google pairing key holds
 * slashes). Literals match without regard to case (`lowered` holds the segments in lower case).
 */
function matchPattern(pattern: string, segments: string[], lowered: string[]): Record<string, string> | undefined {
  const parts = partsOf(pattern);
  const splat = parts[parts.length - 1]?.kind === 'splat';
  if (splat ? segments.length < parts.length : parts.length !== segments.length) return undefined;
  for (let i = 0; i < parts.length; i++) if (parts[i].kind === 'literal' && parts[i].text !== lowered[i]) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.kind === 'splat') params[part.text] = segments.slice(i).join('/');
    else if (part.kind === 'param') params[part.text] = segments[i];
  }
  return params;
}

/** Splits a path into decoded segments; an empty trailing segment (a stray `/`) is dropped. */
export function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((s) => {
      // Most segments hold no escape; only those that do are decoded.
      if (!s.includes('%')) return s;
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** Finds the route for a request; routes are tried in table order, so put literals before parameters. */
export function matchRoute(routes: Route[], method: string, path: string): Match {
  const segments = pathSegments(path);
  const lowered = segments.map((s) => s.toLowerCase());
  let pathKnown = false;
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments, lowered);
    if (!params) continue;
    if (route.method === method) return { route, params };
    pathKnown = true;
  }
  return pathKnown ? { methodNotAllowed: true } : undefined;
}
