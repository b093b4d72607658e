import type { SandboxRequest, SandboxResponse } from './types.js';

/** One received call, as `GET /_sandbox/calls` reports it. */
export interface CallRecord {
  provider: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  at: string;
}

/** A call as logged: kept cheap to record, turned into a CallRecord only when the log is read. */
interface ReceivedCall extends Omit<CallRecord, 'query' | 'at'> {
  query: URLSearchParams;
  at: number;
}

/** The calls the sandbox received, for `GET`/`DELETE /_sandbox/calls`. */
export class CallLog {
  private readonly calls: ReceivedCall[] = [];

  /** Logs a call and the status it got (0: its connection was closed instead). */
  record(provider: string, req: SandboxRequest, status: number): void {
    this.calls.push({ provider, method: req.method, path: req.path, query: req.query, status, at: Date.now() });
  }

  /** The `/_sandbox/calls` admin endpoint, or undefined for another method. */
  admin(method: string, url: URL): SandboxResponse | undefined {
    if (method === 'GET') {
      const provider = url.searchParams.get('provider');
      return { status: 200, body: (provider ? this.calls.filter((c) => c.provider === provider) : this.calls).map(callRecord) };
    }
    if (method === 'DELETE') {
      this.calls.length = 0;
      return { status: 204 };
    }
    return undefined;
  }
}

function callRecord(call: ReceivedCall): CallRecord {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(call.query.keys())) {
    const all = call.query.getAll(key);
    query[key] = all.length === 1 ? all[0] : all;
  }
  return { ...call, query, at: new Date(call.at).toISOString() };
}
