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

/** `:name` matches one segment; a final `*name` matches the rest (a Google pairing key holds slashes). */
function matchPattern(pattern: string, segments: string[]): Record<string, string> | undefined {
  const parts = pattern.split('/').filter(Boolean);
  const splat = parts[parts.length - 1]?.startsWith('*');
  if (splat ? segments.length < parts.length : parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.startsWith('*')) params[part.slice(1)] = segments.slice(i).join('/');
    else if (part.startsWith(':')) params[part.slice(1)] = segments[i];
    else if (part.toLowerCase() !== segments[i].toLowerCase()) return undefined;
  }
  return params;
}

/** Splits a path into decoded segments; an empty trailing segment (a stray `/`) is dropped. */
export function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((s) => {
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
  let pathKnown = false;
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method) return { route, params };
    pathKnown = true;
  }
  return pathKnown ? { methodNotAllowed: true } : undefined;
}
