/**
 * The simulated pipeline API, served below `<sandbox>/pipeline`, so its paths are the real
 * API's (`/v1/connections`, ...). It enforces Basic auth, answers in the documented envelope,
 * pages for real, and can be told to throttle the next calls for retry tests.
 */
import type { SandboxApi, SandboxResponse, SandboxWorld } from '../types.js';
import { authorize, codeForStatus, fail, negotiate, tooManyRequests } from './http.js';
import type { PipelineData } from './model.js';
import { dispatch } from './routes.js';
import { SEED_VERSION, seedPipeline } from './seed/index.js';

/** Pending throttling per world: kept out of the persisted data, since it is a test instruction, not account state. */
const throttles = new WeakMap<SandboxWorld, { remaining: number; retryAfterSeconds: number }>();

/** The account of this world, reseeded when stored data predates the current seed shape. */
function account(world: SandboxWorld): PipelineData {
  const data = world.data<PipelineData>('pipeline', seedPipeline);
  if (data.version !== SEED_VERSION) {
    Object.assign(data, seedPipeline());
    world.save();
  }
  return data;
}

function throttled(world: SandboxWorld): SandboxResponse | undefined {
  const throttle = throttles.get(world);
  if (!throttle || throttle.remaining <= 0) return undefined;
  throttle.remaining -= 1;
  return tooManyRequests(throttle.retryAfterSeconds);
}

/**
 * `POST /_sandbox/pipeline-throttle {count, retryAfterSeconds}`: the next `count` pipeline calls
 * get 429 with that Retry-After, then service resumes; deterministic where the shared fault
 * rates are random. `count: 0` cancels.
 */
function throttleAction(body: unknown, world: SandboxWorld): SandboxResponse {
  const { count, retryAfterSeconds = 1 } = (body ?? {}) as { count?: unknown; retryAfterSeconds?: unknown };
  if (!Number.isInteger(count) || (count as number) < 0 || !Number.isInteger(retryAfterSeconds) || (retryAfterSeconds as number) < 0) {
    return { status: 400, body: { message: 'pipeline-throttle needs {count: integer >= 0, retryAfterSeconds?: integer >= 0}' } };
  }
  throttles.set(world, { remaining: count as number, retryAfterSeconds: retryAfterSeconds as number });
  return { status: 200, body: { count, retryAfterSeconds } };
}

/** The simulated pipeline API. */
export const pipelineApi: SandboxApi = {
  provider: 'pipeline',

  handle(req, world) {
    // Rate limiting comes first, as at the real edge: a throttled caller learns nothing else.
    const limited = throttled(world);
    if (limited) return limited;
    const denied = authorize(req.headers) ?? negotiate(req.headers);
    if (denied) return denied;
    if (!req.path.startsWith('/v1/')) return fail(404, 'NotFound', `No endpoint ${req.method} ${req.path}; paths start with /v1.`);
    const answer = dispatch(req, account(world), world);
    if (req.method !== 'GET' && answer.status < 300) world.save('pipeline');
    return answer;
  },

  // Over a limit: 429 with the whole seconds to wait and the limit's words, as documented.
  throttled: (_req, seconds, message) => tooManyRequests(seconds, message),

  faultBody(status) {
    const text = status === 429 ? 'Too many requests. Retry later.' : `Injected failure (HTTP ${status}).`;
    return { code: codeForStatus(status), message: text };
  },

  admin(name, body, world) {
    if (name === 'pipeline-throttle') return throttleAction(body, world);
    return undefined;
  },
};
