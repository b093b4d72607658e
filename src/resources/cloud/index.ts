import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { antiDdosAllowedDomain } from './anti-ddos-allowed-domain.js';
import { antiDdosInstance } from './anti-ddos-instance.js';
import { antiDdosIp } from './anti-ddos-ip.js';
import { antiDdosRule } from './anti-ddos-rule.js';
import { disk } from './disk.js';
import { diskAttachment } from './disk-attachment.js';
import { eip } from './eip.js';
import { eipAssociation } from './eip-association.js';
import { instance } from './instance.js';
import { label } from './label.js';
import { labelAttachment } from './label-attachment.js';
import { securityGroup } from './security-group.js';
import { subnet } from './subnet.js';
import { vpc } from './vpc.js';

/** Every cloud resource type. */
export const cloudResources: ResourceType[] = [antiDdosInstance, antiDdosAllowedDomain, vpc, subnet, securityGroup, eip, eipAssociation, instance, disk, diskAttachment];
cloudResources.push(antiDdosIp, antiDdosRule, label, labelAttachment);
