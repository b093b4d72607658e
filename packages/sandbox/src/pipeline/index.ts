/**
 * The simulated pipeline API, served below `<sandbox>/pipeline`, so its paths are the real
 * API's (`/v1/connections`, ...). It enforces Basic auth, answers in the documented envelope and
 * pages for real; its rate limits are the sandbox's (limits.ts), its injected 429s the faults'.
 */
import type { SandboxApi, SandboxWorld } from '../types.js';
import { authorize, codeForStatus, fail, negotiate, tooManyRequests } from './http.js';
import type { PipelineData } from './model.js';
import { dispatch } from './routes.js';
import { SEED_VERSION, seedPipeline } from './seed/index.js';
import { setSource } from './schema-source.js';
import { settlePending } from './write-network.js';

/** The account of this world, reseeded when stored data predates the current seed shape. */
function account(world: SandboxWorld): PipelineData {
  const data = world.data<PipelineData>('pipeline', seedPipeline);
  if (data.version !== SEED_VERSION) {
    Object.assign(data, seedPipeline());
    world.save();
  }
  return data;
}

/** The simulated pipeline API. */
export const pipelineApi: SandboxApi = {
  provider: 'pipeline',

  handle(req, world) {
    const denied = authorize(req.headers) ?? negotiate(req.headers);
    if (denied) return denied;
    if (!req.path.startsWith('/v1/')) return fail(404, 'NotFound', `No endpoint ${req.method} ${req.path}; paths start with /v1.`);
    const data = account(world);
    if (settlePending(data, world.now())) world.save('pipeline');
    const answer = dispatch(req, data, world);
    if (req.method !== 'GET' && answer.status < 300) world.save('pipeline');
    return answer;
  },

  // Over a limit: 429 with the whole seconds to wait and the limit's words, as documented.
  throttled: (_req, seconds, message) => tooManyRequests(seconds, message),

  admin(name, body, world) {
    if (name !== 'pipeline-source') return undefined;
    const answer = setSource(body, account(world));
    world.save('pipeline');
    return answer;
  },

  faultBody(status) {
    const text = status === 429 ? 'Too many requests. Retry later.' : `Injected failure (HTTP ${status}).`;
    return { code: codeForStatus(status), message: text };
  },
};
