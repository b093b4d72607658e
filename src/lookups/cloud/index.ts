import type { LookupFunction } from '../../engine/contracts/lookup.js';
import { getAntiDdosInstances } from './get-anti-ddos-instances.js';
import { getAntiDdosIps } from './get-anti-ddos-ips.js';
import { getBaremetalImages } from './get-baremetal-images.js';
import { getDbBackups } from './get-db-backups.js';
import { getDbInstances } from './get-db-instances.js';
import { getDbParameterGroups } from './get-db-parameter-groups.js';
import { getDisks } from './get-disks.js';
import { getEips } from './get-eips.js';
import { getIamGroups } from './get-iam-groups.js';
import { getIamPolicy } from './get-iam-policy.js';
import { getImages } from './get-images.js';
import { getInstances } from './get-instances.js';
import { getLabelResources } from './get-label-resources.js';
import { getLabels } from './get-labels.js';
import { getLbAttachments } from './get-lb-attachments.js';
import { getLbListeners } from './get-lb-listeners.js';
import { getLbRules } from './get-lb-rules.js';
import { getLbSsls } from './get-lb-ssls.js';
import { getLbs } from './get-lbs.js';
import { getNatGateways } from './get-nat-gateways.js';
import { getProjects } from './get-projects.js';
import { getUs3Buckets } from './get-us3-buckets.js';
import { getVpcs } from './get-vpcs.js';
import { getVpnConnections } from './get-vpn-connections.js';
import { getVpnCustomerGateways } from './get-vpn-customer-gateways.js';
import { getVpnGateways } from './get-vpn-gateways.js';
import { getZones } from './get-zones.js';
import { terraformConfig } from './terraform-config.js';

/** Every cloud lookup function, and the provider's terraformConfig method. */
export const cloudLookups: LookupFunction[] = [
  getAntiDdosInstances,
  getAntiDdosIps,
  getBaremetalImages,
  getDbBackups,
  getDbInstances,
  getDbParameterGroups,
  getDisks,
  getEips,
  getIamGroups,
  getIamPolicy,
  getImages,
  getInstances,
  getLabelResources,
  getLabels,
  getLbAttachments,
  getLbListeners,
  getLbRules,
  getLbSsls,
  getLbs,
  getNatGateways,
  getProjects,
  getUs3Buckets,
  getVpcs,
  getVpnConnections,
  getVpnCustomerGateways,
  getVpnGateways,
  getZones,
  terraformConfig,
];
