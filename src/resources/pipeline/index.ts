import type { ResourceType } from '../handler.js';
import { connection } from './connection.js';
import { connectionSchedule } from './connection-schedule.js';
import { destination } from './destination.js';
import { group } from './group.js';

/** Every pipeline resource type. */
export const pipelineResources: ResourceType[] = [group, destination, connection, connectionSchedule];
