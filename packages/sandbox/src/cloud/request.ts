/**
 * One call as the simulated cloud API sees it: the flattened parameters (all strings, as a form
 * body sends them), typed accessors that fail with the API's own RetCodes, and Offset/Limit paging.
 */
import type { CloudDb } from './store.js';

/** A failure answered as HTTP 200 with RetCode ≠ 0, as the real API does. */
export class ApiError extends Error {
  constructor(
    readonly retCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The generic "parameter missing or not acceptable" failure. */
export function paramError(name: string, why?: string): ApiError {
  return new ApiError(230, `Params [${name}] not available${why ? `: ${why}` : ''}`);
}

/** A number or boolean written the way the signature and the form body write it. */
export function scalarString(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
    return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  }
  return String(value);
}

/** Flattens a JSON body the way form bodies are built: `X.0`, `X.0.Key`, `X.Sub`. */
export function flattenBody(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (prefix: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) value.forEach((v, i) => visit(`${prefix}.${i}`, v));
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(`${prefix}.${k}`, v);
    else out[prefix] = scalarString(value);
  };
  for (const [key, value] of Object.entries(body)) visit(key, value);
  return out;
}

/** What an Action handler reads from the call. */
export class ActionRequest {
  constructor(
    readonly action: string,
    readonly params: Record<string, string>,
    private readonly regions: Set<string>,
    private readonly projects: Set<string>,
  ) {}

  /** A string parameter; empty strings count as absent, as the SDK never sends them. */
  str(name: string): string | undefined {
    const value = this.params[name];
    return value === undefined || value === '' ? undefined : value;
  }

  /** A string parameter that must be present. */
  required(name: string): string {
    const value = this.str(name);
    if (value === undefined) throw paramError(name, 'missing');
    return value;
  }

  /** An integer parameter (`"100"` and `100` are the same). */
  int(name: string): number | undefined {
    const value = this.str(name);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) throw paramError(name, 'not an integer');
    return Number(value);
  }

  /** A boolean parameter (`"true"` and `true` are the same). */
  bool(name: string): boolean | undefined {
    const value = this.str(name)?.toLowerCase();
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw paramError(name, 'not a boolean');
    return value === 'true';
  }

  /** A list parameter sent as `X.0`, `X.1`, … in index order. */
  list(name: string): string[] {
    const found: [number, string][] = [];
    for (const [key, value] of Object.entries(this.params)) {
      const m = key.startsWith(`${name}.`) ? /^(\d+)$/.exec(key.slice(name.length + 1)) : null;
      if (m && value !== '') found.push([Number(m[1]), value]);
    }
    return found.sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  }

  /** The Region, which must name one the sandbox serves. */
  region(): string {
    const region = this.required('Region');
    if (!this.regions.has(region)) throw paramError('Region', `unknown region ${region}`);
    return region;
  }

  /** The ProjectId when sent; an unknown one is RetCode 292. */
  project(): string | undefined {
    const project = this.str('ProjectId');
    if (project !== undefined && !this.projects.has(project)) throw new ApiError(292, `Project [${project}] not exists`);
    return project;
  }

  /** Offset/Limit slice of a list with the full count (TotalCount is never the page size). */
  page<T>(items: T[], defaultLimit: number, maxLimit = 1000): { items: T[]; total: number } {
    const offset = this.int('Offset') ?? 0;
    const limit = this.int('Limit') ?? defaultLimit;
    if (offset < 0) throw paramError('Offset', 'must not be negative');
    if (limit < 0 || limit > maxLimit) throw paramError('Limit', `must be between 0 and ${maxLimit}`);
    return { items: items.slice(offset, offset + limit), total: items.length };
  }
}

/** Answers an Action: a payload to merge into the envelope. */
export type ActionHandler = (req: ActionRequest, ctx: ActionContext) => Record<string, unknown>;

/** What handlers get besides the request. */
export interface ActionContext {
  db: CloudDb;
  now: number;
  provisioningMs: number;
}
