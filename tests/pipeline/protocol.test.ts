/**
 * Table-driven checks of the protocol facts the client relies on: which paths get the version-2
 * Accept header, how Retry-After is read, and how error codes map to kinds.
 */
import { describe, expect, it } from 'vitest';
import { kindFor } from '../../src/providers/pipeline/classify.js';
import { acceptFor, retryAfterMs } from '../../src/providers/pipeline/protocol.js';

describe('acceptFor', () => {
  it.each([
    ['/connections', 'application/json;version=2', 'the OpenAPI default for the connection list'],
    ['/connections/abc', 'application/json;version=2', 'the Go SDK sends v2 for connection details'],
    ['/connections/abc/sync', 'application/json;version=2', 'connection actions default to v2'],
    ['/connections/abc/certificates', 'application/json', 'trust lists are not versioned'],
    ['/connections/abc/fingerprints', 'application/json', 'trust lists are not versioned'],
    ['/connections/abc/schemas', 'application/json', 'schema config is not versioned'],
    ['/destinations', 'application/json;version=2', 'every destination operation defaults to v2'],
    ['/destinations/abc/fingerprints', 'application/json;version=2', 'every destination operation defaults to v2'],
    ['/groups/abc/connections', 'application/json', 'group endpoints are plain JSON'],
    ['/proxy', 'application/json', 'other endpoints are plain JSON'],
  ])('%s → %s (%s)', (path, accept) => {
    expect(acceptFor(path)).toBe(accept);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2025-06-14T10:00:00Z');
  it.each([
    ['3', 3000, 'integer seconds, as the API sends'],
    ['0', 0, 'zero means retry at once'],
    [' 12 ', 12_000, 'whitespace is tolerated'],
    ['Sat, 14 Jun 2025 10:00:05 GMT', 5000, 'an HTTP date is also valid HTTP'],
    ['Sat, 14 Jun 2025 09:00:00 GMT', 0, 'a date in the past means now'],
    ['soon', undefined, 'unreadable values fall back to the client backoff'],
    [null, undefined, 'absent header'],
  ])('%s → %s (%s)', (header, expected) => {
    expect(retryAfterMs(header, now)).toBe(expected);
  });
});

describe('kindFor', () => {
  it.each([
    [404, 'NotFound_Connection', 'not-found', 'entity-specific code'],
    [404, 'NotFound_Integration', 'not-found', 'the old connector name'],
    [400, 'NotFound_SchemaConfig', 'not-found', 'a NotFound code wins over the status'],
    [404, undefined, 'not-found', 'a bare 404'],
    [429, 'TooManyRequests', 'rate-limited', 'rate limit'],
    [401, 'Unauthorized', 'unauthorized', 'bad credentials'],
    [403, 'Forbidden', 'unauthorized', 'not permitted'],
    [409, 'Conflict', 'conflict', 'conflict'],
    [406, 'NotAcceptable', 'invalid', 'a request mistake'],
    [415, undefined, 'invalid', 'a request mistake'],
    [400, 'InvalidInput', 'invalid', 'bad input'],
    [500, undefined, 'unavailable', 'server error'],
    [503, 'ServiceUnavailable', 'unavailable', 'server error'],
  ])('%i %s → %s (%s)', (status, code, kind) => {
    expect(kindFor(status, code)).toBe(kind);
  });
});
