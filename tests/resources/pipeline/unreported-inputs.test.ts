/**
 * Inputs the API never reports that have a documented default (a re-auth counter, an agent's
 * authType, the setup-test flags): an object plumb made without one was made with its default,
 * so writing another value into the manifest later is a change. Raising `authenticationCounter`
 * re-authenticates an agent made without it, the step plumb's own message for lost credentials
 * asks for; taking the manifest's value as the object's would plan no change and call nothing.
 * Each case is named with what it guards, and planned by the engine's own classification.
 */
import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/engine/planning/classify.js';
import type { ResourceType } from '../../../src/engine/contracts/resource-type.js';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { destination } from '../../../src/resources/pipeline/destination.js';
import { hybridDeploymentAgent } from '../../../src/resources/pipeline/hybrid-deployment-agent.js';
import { proxyAgent } from '../../../src/resources/pipeline/proxy-agent.js';
import { transformationProject } from '../../../src/resources/pipeline/transformation-project.js';

const agent = { groupId: 'decent_dropsy', displayName: 'lab-agent', envType: 'DOCKER' };
const proxy = { displayName: 'nyc-proxy', groupRegion: 'AWS_US_EAST_1' };
const source = { service: 'salesforce', groupId: 'decent_dropsy', destinationSchema: { name: 'sfdc' } };
const warehouse = { groupId: 'decent_dropsy', service: 'snowflake', timeZoneOffset: '0' };
const project = { groupId: 'decent_dropsy', dbtVersion: '1.7.1', defaultSchema: 'analytics', gitRemoteUrl: 'git@github.com:acme/dbt.git' };

type Case = [name: string, type: ResourceType, made: Record<string, unknown>, desired: Record<string, unknown>, planned: 'update' | 'record only' | 'noop'];

const cases: Case[] = [
  ['a hybrid agent made without authenticationCounter is re-authenticated when it is written as 1', hybridDeploymentAgent, agent, { ...agent, authenticationCounter: 1 }, 'update'],
  ['a hybrid agent made without authType (AUTO) is re-authenticated when it is written MANUAL', hybridDeploymentAgent, agent, { ...agent, authType: 'MANUAL' }, 'update'],
  ['authenticationCounter written as its default 0 is no change', hybridDeploymentAgent, agent, { ...agent, authenticationCounter: 0, authType: 'AUTO' }, 'noop'],
  ['a proxy agent made without regenerationCounter has new secrets issued when it is written as 1', proxyAgent, proxy, { ...proxy, regenerationCounter: 1 }, 'update'],
  ['regenerationCounter written as its default 0 is no change', proxyAgent, proxy, { ...proxy, regenerationCounter: 0 }, 'noop'],
  ['setup-test flags written as their default false for a connection made without them are no change', connection, source, { ...source, runSetupTests: false, trustCertificates: false }, 'noop'],
  ['runSetupTests written for a connection made without it is recorded (the API keeps no such flag)', connection, source, { ...source, runSetupTests: true }, 'record only'],
  ['trustCertificates written for a destination made without it is recorded', destination, warehouse, { ...warehouse, trustCertificates: true }, 'record only'],
  ['runTests written false for a project made without it (true) is recorded', transformationProject, project, { ...project, runTests: false }, 'record only'],
];

const context = { gone: false, replaceRequested: false, options: { ignoreChanges: [], replaceOnChanges: [] }, dependsOn: [] };

describe('inputs the API never reports, added to the manifest of an object plumb made without them', () => {
  it.each(cases)('%s', (_name, type, made, desired, planned) => {
    const prior = { address: 'subject', type: type.token, id: 'lucky_otter', inputs: made, outputs: { id: 'lucky_otter', ...made }, dependencies: [], status: 'ok' as const };
    const change = classify('subject', type, desired, prior, false, context);
    expect(change.action === 'update' && change.recordOnly ? 'record only' : change.action).toBe(planned);
  });
});
