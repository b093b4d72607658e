import { cloneJson, isInt, isObject } from './envelope.js';
import { isIPv4, isIPv6, parseCidr } from './net.js';
import { decommissionedAt, type Clock } from './provisioning.js';
import type { EndTarget, InterconnectDb, McrRecord, VxcRecord } from './store.js';

/** Keys of a CSP partner config each connect type cannot do without. */
const REQUIRED: Record<string, string[]> = {
  AWS: ['ownerAccount'],
  AWSHC: ['ownerAccount'],
  AZURE: ['serviceKey'],
  GOOGLE: ['pairingKey'],
  ORACLE: ['virtualCircuitId'],
  IBM: ['account_id'],
};

const PREFIX_LIST_KEYS = ['importWhitelist', 'importBlacklist', 'exportWhitelist', 'exportBlacklist'] as const;

/** Interfaces of a vrouter config, or [] when the config has none. */
export function interfacesOf(cfg: Record<string, unknown> | undefined): Array<Record<string, unknown>> {
  const list = cfg?.interfaces;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/**
 * Checks the partner config ordered for one VXC end against what that end lands on, appending one
 * message per broken rule. Returns the config to store (a copy), or undefined when none was given.
 * A config with `interfaces` is a vrouter config and needs an MCR end; a CSP config needs a partner
 * port of the same connect type and that type's identifying key.
 */
export function checkPartnerConfig(cfg: unknown, end: EndTarget, side: 'A' | 'B', db: InterconnectDb, errors: string[]): Record<string, unknown> | undefined {
  const where = `${side}-End partnerConfig`;
  if (cfg === undefined || cfg === null) {
    const type = end.kind === 'partner' ? end.port.connectType : undefined;
    if (type && REQUIRED[type]) errors.push(`${where} is required for a ${type} connection`);
    return undefined;
  }
  if (!isObject(cfg)) {
    errors.push(`${where} must be an object`);
    return undefined;
  }
  const connectType = typeof cfg.connectType === 'string' ? cfg.connectType.toUpperCase() : undefined;
  if (cfg.interfaces !== undefined || connectType === 'VROUTER') {
    if (end.kind !== 'own' || end.product.productType !== 'MCR2') {
      errors.push(`${where}: a virtual router configuration needs an MCR at the ${side}-End`);
    } else {
      checkInterfaces(cfg.interfaces, end.product, where, db, errors);
    }
    return cloneJson(cfg);
  }
  if (!connectType) {
    errors.push(`${where}.connectType is required`);
    return undefined;
  }
  if (end.kind !== 'partner') {
    errors.push(`${where}: connectType ${connectType} needs a ${connectType} partner port at the ${side}-End`);
    return undefined;
  }
  if (end.port.connectType !== connectType) {
    errors.push(`${where}: connectType ${connectType} does not match the ${end.port.connectType} partner port ${end.port.productUid}`);
    return undefined;
  }
  for (const key of REQUIRED[connectType] ?? []) {
    if (typeof cfg[key] !== 'string' || !(cfg[key] as string).trim()) errors.push(`${where}.${key} is required for ${connectType}`);
  }
  if (connectType === 'AWS') {
    if (!['private', 'public', 'transit'].includes(String(cfg.type).toLowerCase())) errors.push(`${where}.type must be private, public or transit`);
    if (typeof cfg.ownerAccount === 'string' && !/^\d{12}$/.test(cfg.ownerAccount)) errors.push(`${where}.ownerAccount must be a 12-digit AWS account ID`);
  }
  if (connectType === 'AZURE' && cfg.peers !== undefined) checkAzurePeers(cfg.peers, where, errors);
  return { ...cloneJson(cfg), connectType };
}

/** Azure peerings: a type, and a peer_asn of digits (the SDK sends it as a string, others as a number). */
function checkAzurePeers(peers: unknown, where: string, errors: string[]): void {
  if (!Array.isArray(peers)) {
    errors.push(`${where}.peers must be a list`);
    return;
  }
  peers.forEach((peer, i) => {
    const at = `${where}.peers[${i}]`;
    if (!isObject(peer)) return errors.push(`${at} must be an object`);
    if (!['private', 'microsoft'].includes(String(peer.type).toLowerCase())) errors.push(`${at}.type must be private or microsoft`);
    const asn = peer.peer_asn;
    const digits = typeof asn === 'string' ? /^\d{1,10}$/.test(asn) && Number(asn) >= 1 && Number(asn) <= 4294967295 : isInt(asn) && asn >= 1 && asn <= 4294967295;
    if (asn !== undefined && asn !== null && !digits) errors.push(`${at}.peer_asn must be an ASN, 1 to 4294967295`);
  });
}

function checkInterfaces(list: unknown, mcr: McrRecord, where: string, db: InterconnectDb, errors: string[]): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) {
    errors.push(`${where}.interfaces must be a list`);
    return;
  }
  list.forEach((iface, i) => {
    const at = `${where}.interfaces[${i}]`;
    if (!isObject(iface)) return errors.push(`${at} must be an object`);
    if (Array.isArray(iface.ipSecTunnelOptions)) return errors.push('Interfaces could not be parsed for DHCP validation');
    const type = iface.interfaceType;
    if (type !== undefined && type !== 'subInterface' && type !== 'ipSecTunnel') errors.push(`${at}.interfaceType must be subInterface or ipSecTunnel`);
    if (type === 'ipSecTunnel') checkTunnel(iface.ipSecTunnelOptions, at, errors);
    if (iface.ipAddresses !== undefined) {
      if (!Array.isArray(iface.ipAddresses) || iface.ipAddresses.some((a) => !parseCidr(a))) errors.push(`${at}.ipAddresses must be CIDR addresses`);
    }
    if (iface.ipMtu !== undefined && (!isInt(iface.ipMtu) || iface.ipMtu < 68 || iface.ipMtu > 9074)) errors.push(`${at}.ipMtu must be between 68 and 9074`);
    if (iface.bgpConnections !== undefined) {
      if (!Array.isArray(iface.bgpConnections)) return errors.push(`${at}.bgpConnections must be a list`);
      iface.bgpConnections.forEach((bgp, j) => checkBgp(bgp, `${at}.bgpConnections[${j}]`, mcr, db, errors));
    }
  });
}

function checkTunnel(opts: unknown, at: string, errors: string[]): void {
  if (!isObject(opts)) {
    errors.push(`${at}.ipSecTunnelOptions is required for an ipSecTunnel interface`);
    return;
  }
  for (const key of ['sourceIpAddress', 'destinationIpAddress'] as const) {
    const v = opts[key];
    if (typeof v !== 'string' || !(isIPv4(v) || isIPv6(v))) errors.push(`${at}.ipSecTunnelOptions.${key} must be an IP address`);
  }
  const p1 = opts.phase1Lifetime;
  if (p1 !== undefined && (!isInt(p1) || p1 < 3600 || p1 > 604800)) errors.push(`${at}.ipSecTunnelOptions.phase1Lifetime must be between 3600 and 604800`);
  const p2 = opts.phase2Lifetime;
  if (p2 !== undefined && (!isInt(p2) || p2 < 600 || p2 > 86400)) errors.push(`${at}.ipSecTunnelOptions.phase2Lifetime must be between 600 and 86400`);
}

function checkBgp(bgp: unknown, at: string, mcr: McrRecord, db: InterconnectDb, errors: string[]): void {
  if (!isObject(bgp)) {
    errors.push(`${at} must be an object`);
    return;
  }
  if (!isInt(bgp.peerAsn) || bgp.peerAsn < 1 || bgp.peerAsn > 4294967295) errors.push(`${at}.peerAsn must be a valid ASN`);
  for (const key of ['peerIpAddress', 'localIpAddress'] as const) {
    const v = bgp[key];
    if (v !== undefined && (typeof v !== 'string' || !(isIPv4(v) || isIPv6(v)))) errors.push(`${at}.${key} must be an IP address`);
  }
  const prepend = bgp.asPathPrependCount;
  if (prepend !== undefined && (!isInt(prepend) || prepend < 0 || prepend > 10)) errors.push(`${at}.asPathPrependCount must be between 0 and 10`);
  if (bgp.peerType !== undefined && !['NON_CLOUD', 'PRIV_CLOUD', 'PUB_CLOUD'].includes(String(bgp.peerType))) {
    errors.push(`${at}.peerType must be NON_CLOUD, PRIV_CLOUD or PUB_CLOUD`);
  }
  for (const key of PREFIX_LIST_KEYS) {
    const id = bgp[key];
    if (id === undefined || id === null) continue;
    if (!isInt(id) || !db.prefixLists.some((l) => l.mcrUid === mcr.productUid && l.id === id)) {
      errors.push(`${at}.${key}: prefix filter list ${String(id)} does not exist on MCR ${mcr.productUid}`);
    }
  }
}

/** Number of ipSecTunnel interfaces in a vrouter config. */
export function tunnelsIn(cfg: Record<string, unknown> | undefined): number {
  return interfacesOf(cfg).filter((i) => i.interfaceType === 'ipSecTunnel').length;
}

/** VXCs that still exist as services (their VLANs and configs still count). */
function liveVxcs(db: InterconnectDb, clock: Clock): VxcRecord[] {
  return Object.values(db.products).filter((p): p is VxcRecord => {
    if (p.productType !== 'VXC') return false;
    const gone = decommissionedAt(p, db, clock);
    return gone === undefined || clock.now < gone;
  });
}

/** IPsec tunnels configured on an MCR by the VXC ends that land on it, except one VXC being changed. */
export function configuredTunnels(db: InterconnectDb, mcrUid: string, clock: Clock, exceptVxc?: string): number {
  let n = 0;
  for (const vxc of liveVxcs(db, clock)) {
    if (vxc.productUid === exceptVxc) continue;
    for (const end of [vxc.aEnd, vxc.bEnd]) if (end.productUid === mcrUid) n += tunnelsIn(end.partnerConfig);
  }
  return n;
}

/** Tunnels the MCR's IPsec add-ons allow. */
export function tunnelLimit(mcr: McrRecord): number {
  return mcr.addOns.reduce((sum, a) => sum + (a.addOnType === 'IP_SEC' ? a.tunnelCount : 0), 0);
}

/** UIDs of live VXCs whose BGP connections on this MCR reference the prefix list. */
export function prefixListUsers(db: InterconnectDb, mcrUid: string, id: number, clock: Clock): string[] {
  const users: string[] = [];
  for (const vxc of liveVxcs(db, clock)) {
    for (const end of [vxc.aEnd, vxc.bEnd]) {
      if (end.productUid !== mcrUid) continue;
      const refers = interfacesOf(end.partnerConfig).some((iface) =>
        (Array.isArray(iface.bgpConnections) ? iface.bgpConnections : []).some((bgp) => isObject(bgp) && PREFIX_LIST_KEYS.some((k) => bgp[k] === id)),
      );
      if (refers && !users.includes(vxc.productUid)) users.push(vxc.productUid);
    }
  }
  return users;
}
