/**
 * One entry of the simulated pipeline API's route table: a method, a path pattern with `:name`
 * parameters, and its handler. Read and write routes are declared in their own files with this.
 */
import type { SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import type { PipelineData } from './model.js';

/** Path parameters by name, decoded. */
export type Params = Record<string, string>;

/** Answers one request; `world` gives the clock. */
export type Handler = (req: SandboxRequest, params: Params, data: PipelineData, world: SandboxWorld) => SandboxResponse;

/** A compiled route. */
export interface Route {
  method: string;
  regex: RegExp;
  keys: string[];
  handler: Handler;
}

/** A route for `method` on `pattern` (`/v1/groups/:id`); a trailing slash matches too. */
export function route(method: string, pattern: string, handler: Handler): Route {
  const keys: string[] = [];
  const source = pattern.replace(/:(\w+)/g, (_, key: string) => {
    keys.push(key);
    return '([^/]+)';
  });
  return { method, regex: new RegExp(`^${source}/?$`), keys, handler };
}
