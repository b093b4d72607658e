/**
 * The generated lifecycle suite (tests/support/generated-lifecycle.ts) of every pipeline resource type,
 * against a sandbox of its own, with the reviewed table of what is known to fail and why.
 */
import { describeGenerated } from '../../support/generated-lifecycle.js';
import { known } from './generated-known.js';
import { pipelineLifecycle } from './specs.js';

// Each input the base leaves out is also written down with the value the API has: no update that sends nothing.
await describeGenerated(pipelineLifecycle, known, { adopt: true });
