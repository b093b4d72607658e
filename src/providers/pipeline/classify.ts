/**
 * Turns a failed pipeline API call into the shared RemoteError, once, here: handlers and lookups
 * branch on `kind` and never look at status codes or the API's code strings.
 */
import { kindForStatus, RemoteError, type ErrorKind } from '../../kernel/errors.js';
import { certificateProblem } from '../http.js';
import { retryAfterMs } from '../retry.js';
import { isEnvelope } from './protocol.js';

/** Where a failed call went; the query is left out because it may carry filter values only. */
export interface CallSite {
  method: string;
  path: string;
}

/**
 * The kind for an error response. Not-found codes vary by entity and era (`NotFound_Connection`,
 * `NotFound_Connector`, `NotFound_Integration`, plain `NotFound`), so any code starting with
 * `NotFound` counts, as does a bare 404.
 */
export function kindFor(status: number, code: string | undefined): ErrorKind {
  if (code?.startsWith('NotFound')) return 'not-found';
  if (code === 'TooManyRequests') return 'rate-limited';
  // 406 (unsupported Accept) and 415 (wrong Content-Type) are request mistakes, like 400.
  return kindForStatus(status);
}

/**
 * The RemoteError for a non-2xx response. The message carries the API's own code and text but
 * never a header, so credentials cannot leak into logs or output.
 */
export function classifyResponse(site: CallSite, status: number, body: unknown, retryAfter: string | null): RemoteError {
  const envelope = isEnvelope(body) ? body : undefined;
  const code = envelope?.code;
  const text = envelope?.message ?? (typeof body === 'string' && body.length > 0 ? body.slice(0, 200) : undefined);
  const kind = kindFor(status, code);
  const wait = kind === 'rate-limited' ? retryAfterMs(retryAfter) : undefined;
  const parts = [`${status}${code ? ` ${code}` : ''}`, text].filter(Boolean).join(': ');
  return new RemoteError(kind, `pipeline API ${site.method} ${site.path}: ${parts}`, {
    provider: 'pipeline',
    status,
    method: site.method,
    path: site.path,
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
  });
}

/**
 * The RemoteError for a call that got no HTTP answer (refused, reset, timed out): the transport's
 * reason, with the host. A server certificate that failed verification is final (unauthorized).
 */
export function classifyNetworkFailure(site: CallSite, url: URL, err: unknown): RemoteError {
  const untrusted = certificateProblem(err, url);
  return new RemoteError(untrusted ? 'unauthorized' : 'unavailable', `pipeline API ${site.method} ${site.path} at ${url.host}: ${untrusted ?? (err as Error).message}`, {
    provider: 'pipeline',
    method: site.method,
    path: site.path,
  });
}

/** The RemoteError for a 2xx answer that is not the documented envelope (proxy page, truncated body). */
export function malformedResponse(site: CallSite, status: number, what: string): RemoteError {
  return new RemoteError('unavailable', `pipeline API ${site.method} ${site.path}: ${status} response ${what}`, {
    provider: 'pipeline',
    status,
    method: site.method,
    path: site.path,
  });
}
