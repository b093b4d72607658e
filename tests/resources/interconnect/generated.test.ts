/**
 * The generated lifecycle suite (tests/support/generated-lifecycle.ts) of every interconnect resource type,
 * against a sandbox of its own, with the reviewed table of what is known to fail and why.
 */
import { describeGenerated } from '../../support/generated-lifecycle.js';
import { known } from './generated-known.js';
import { interconnectLifecycle } from './specs.js';

await describeGenerated(interconnectLifecycle, known);
