import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { ix } from './ix.js';
import { lagPort } from './lag-port.js';
import { mcr } from './mcr.js';
import { mcrIpsecAddon } from './mcr-ipsec-addon.js';
import { mcrPrefixFilterList } from './mcr-prefix-filter-list.js';
import { mve } from './mve.js';
import { port } from './port.js';
import { serviceKey } from './service-key.js';
import { vxc } from './vxc.js';

/** Every interconnect resource type. */
export const interconnectResources: ResourceType[] = [port, lagPort, ix, serviceKey, mve, mcr, mcrPrefixFilterList, mcrIpsecAddon, vxc];
