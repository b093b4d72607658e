/**
 * The simulated cloud account's data: everything the Actions read and write, created from the
 * seed tables on first use and persisted by the sandbox world between commands.
 */
import type { SandboxWorld } from '../types.js';
import { builtinAccounts, type Account } from './auth.js';
import { seedEmptyLabels, seedIamGroups, seedIamPolicies, seedLabelledResources, seedProjects } from './seed-account.js';
import { seedDisks, seedHostImages, seedHosts, seedPhostImages, seedRegions } from './seed-compute.js';
import { seedBuckets, seedDbBackups, seedDbInstances, seedParamGroups } from './seed-data.js';
import { seedLbs, seedSsls } from './seed-lb.js';
import { seedEips, seedFirewalls, seedNatGateways, seedRemoteGateways, seedSubnets, seedVpcs, seedVpnGateways, seedVpnTunnels } from './seed-network.js';
import { seedUadsDomains, seedUadsInstances, seedUadsIps, type UadsDomain, type UadsInstance } from './seed-uads.js';
import type { Rec } from './seed-util.js';

/** Bumped when the shape changes, so an old data file is reseeded instead of misread. */
const DB_VERSION = 3;

/** The whole simulated account. */
export interface CloudDb {
  version: number;
  accounts: Record<string, Account>;
  regions: Rec[];
  projects: Rec[];
  hostImages: Rec[];
  phostImages: Rec[];
  hosts: Rec[];
  disks: Rec[];
  eips: Rec[];
  vpcs: Rec[];
  subnets: Rec[];
  firewalls: Rec[];
  natGateways: Rec[];
  vpnGateways: Rec[];
  remoteGateways: Rec[];
  vpnTunnels: Rec[];
  lbs: Rec[];
  ssls: Rec[];
  dbInstances: Rec[];
  dbBackups: Rec[];
  paramGroups: Rec[];
  buckets: Rec[];
  iamGroups: Rec[];
  iamPolicies: Rec[];
  labelledResources: Rec[];
  extraLabels: Rec[];
  uadsInstances: UadsInstance[];
  uadsIps: Rec[];
  uadsRules: Rec[];
  uadsDomains: UadsDomain[];
}

/** A freshly seeded account. */
export function seedDb(): CloudDb {
  return {
    version: DB_VERSION,
    accounts: builtinAccounts(),
    regions: seedRegions(),
    projects: seedProjects(),
    hostImages: seedHostImages(),
    phostImages: seedPhostImages(),
    hosts: seedHosts(),
    disks: seedDisks(),
    eips: seedEips(),
    vpcs: seedVpcs(),
    subnets: seedSubnets(),
    firewalls: seedFirewalls(),
    natGateways: seedNatGateways(),
    vpnGateways: seedVpnGateways(),
    remoteGateways: seedRemoteGateways(),
    vpnTunnels: seedVpnTunnels(),
    lbs: seedLbs(),
    ssls: seedSsls(),
    dbInstances: seedDbInstances(),
    dbBackups: seedDbBackups(),
    paramGroups: seedParamGroups(),
    buckets: seedBuckets(),
    iamGroups: seedIamGroups(),
    iamPolicies: seedIamPolicies(),
    labelledResources: seedLabelledResources(),
    extraLabels: seedEmptyLabels(),
    uadsInstances: seedUadsInstances(),
    uadsIps: seedUadsIps(),
    uadsRules: [],
    uadsDomains: seedUadsDomains(),
  };
}

/** The account in this world, reseeded when the stored data has an older shape. */
export function cloudDb(world: SandboxWorld): CloudDb {
  const db = world.data<CloudDb>('cloud', seedDb);
  if (db.version !== DB_VERSION) {
    Object.assign(db, seedDb());
    world.save();
  }
  return db;
}

/** Records of the request's region (and project, when one is sent). */
export function scoped(records: Rec[], region: string | undefined, project: string | undefined): Rec[] {
  return records.filter((r) => (region === undefined || r.Region === undefined || r.Region === region) && (project === undefined || r.ProjectId === undefined || r.ProjectId === project));
}

/**
 * A copy of the record without the given fields (the sandbox's scope fields the API does not
 * return) and without the sandbox's own bookkeeping (fields starting with `_`).
 */
export function without(record: Rec, ...keys: string[]): Rec {
  const out: Rec = { ...record };
  for (const key of keys) delete out[key];
  for (const key of Object.keys(out)) if (key.startsWith('_')) delete out[key];
  return out;
}
