import type { SandboxApi } from './types.js';
import { interconnectApi } from './interconnect/index.js';
import { cloudApi } from './cloud/index.js';
import { pipelineApi } from './pipeline/index.js';

/** Every provider's simulated API, by URL prefix. */
export const sandboxApis: SandboxApi[] = [interconnectApi, cloudApi, pipelineApi];
