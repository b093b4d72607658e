/** Seed data for anti-DDoS: instances in every status, their protected IPs and allowed domains. */
import { DEFAULT_PROJECT, sid, unix, type Rec } from './seed-util.js';

/** An anti-DDoS instance as the sandbox stores it; status is derived from the dates and the flag. */
export interface UadsInstance {
  ResourceId: string;
  Name: string;
  AreaLine: string;
  EngineRoom: string[];
  SrcBandwidth: number;
  Base: number;
  Max: number;
  ChargeType: 'Month' | 'Year';
  Quantity: number;
  /** Unix seconds. */
  CreateTime: number;
  /** Unix seconds; after it the instance is Expired. */
  ExpiredTime: number;
  ProjectId: string;
  Region: string;
  /** Defence turned off by its owner. */
  Stopped: boolean;
  /** Epoch ms from which describe calls show it (buying takes a while). */
  VisibleAt: number;
}

/** An allowed-domain entry; its status is derived from the timestamps. */
export interface UadsDomain {
  ResourceId: string;
  Domain: string;
  Remark: string;
  /** Unix seconds. */
  CreateTime: number;
  /** Epoch ms at which Adding settles into Success (or Failure). */
  SettleAt: number;
  /** The platform refuses this domain: it settles into Failure. */
  Fails: boolean;
  /** Epoch ms of the delete call: Deleting until it settles, then gone. */
  DeletedAt?: number;
}

/** The id of a seeded anti-DDoS instance. */
export function uadsId(name: string): string {
  return sid('usecure_ghp', name);
}

/** Three instances: one Started, one Stopped, one Expired. */
export function seedUadsInstances(): UadsInstance[] {
  const inst = (name: string, area: string, room: string, bw: number, base: number, max: number, charge: 'Month' | 'Year', created: string, expires: string, stopped: boolean): UadsInstance => ({
    ResourceId: uadsId(name),
    Name: name,
    AreaLine: area,
    EngineRoom: [room],
    SrcBandwidth: bw,
    Base: base,
    Max: max,
    ChargeType: charge,
    Quantity: 1,
    CreateTime: unix(created),
    ExpiredTime: unix(expires),
    ProjectId: DEFAULT_PROJECT,
    Region: 'cn-bj2',
    Stopped: stopped,
    VisibleAt: 0,
  });
  return [
    inst('edge-shield', 'EastChina', 'Yangzhou', 100, 30, 100, 'Year', '2024-03-01T00:00:00Z', '2030-03-01T00:00:00Z', false),
    inst('north-shield', 'NorthChina', 'Shijiazhuang', 50, 30, 50, 'Month', '2024-06-01T00:00:00Z', '2030-06-01T00:00:00Z', true),
    inst('old-shield', 'EastChina', 'Zaozhuang', 50, 30, 30, 'Month', '2023-01-01T00:00:00Z', '2024-01-01T00:00:00Z', false),
  ];
}

/** Protected (high-defence) IPs of the seeded instances. */
export function seedUadsIps(): Rec[] {
  const ip = (instance: string, n: number, status: string, src: string[], remark: string): Rec => ({
    ResourceId: uadsId(instance),
    DefenceIP: `123.59.${100 + n}.${10 + n}`,
    Cname: `${sid('gp', `${instance}/${n}`).slice(3)}.ddos.sandbox-cdn.com`,
    LineType: 'BGP',
    RuleCnt: n,
    Status: status,
    SrcIP: src,
    Remark: remark,
  });
  return [
    ip('edge-shield', 1, 'Success', ['106.75.10.11'], 'www frontends'),
    ip('edge-shield', 2, 'Success', ['106.75.10.12', '106.75.10.13'], 'api frontends'),
    ip('edge-shield', 3, 'Pending', [], 'reserved'),
    ip('north-shield', 4, 'Success', ['117.50.3.4'], 'game gateway'),
  ];
}

/** Domains already allowed on the Started instance. */
export function seedUadsDomains(): UadsDomain[] {
  return [
    { ResourceId: uadsId('edge-shield'), Domain: 'example.org', Remark: 'marketing site', CreateTime: unix('2024-03-02T00:00:00Z'), SettleAt: 0, Fails: false },
    { ResourceId: uadsId('edge-shield'), Domain: 'example.net', Remark: '', CreateTime: unix('2024-03-03T00:00:00Z'), SettleAt: 0, Fails: false },
  ];
}
