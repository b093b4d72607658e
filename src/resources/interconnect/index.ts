import type { ResourceType } from '../handler.js';
import { port } from './port.js';

/** Every interconnect resource type. */
export const interconnectResources: ResourceType[] = [port];
