import type { ResourceType } from '../handler.js';
import { antiDdosAllowedDomain } from './anti-ddos-allowed-domain.js';
import { antiDdosInstance } from './anti-ddos-instance.js';

/** Every cloud resource type. */
export const cloudResources: ResourceType[] = [antiDdosInstance, antiDdosAllowedDomain];
