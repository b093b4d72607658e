/**
 * Table-driven checks of the protocol facts the client relies on: which paths get the version-2
 * Accept header and how error codes map to kinds (Retry-After is read by the retry policy).
 */
import { describe, expect, it } from 'vitest';
import { kindFor } from '../../src/providers/pipeline/classify.js';
import { acceptFor } from '../../src/providers/pipeline/protocol.js';

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
  ] as Array<[number, string | undefined, string, string]>)('%i %s → %s (%s)', (status, code, kind) => {
    expect(kindFor(status, code)).toBe(kind);
  });
});
