/**
 * Listener (VServer), backend and content-forwarding policy Actions of the CLB API. A listener's
 * protocol and port are fixed once made (UpdateVServerAttribute takes neither); a port is used
 * once per balancer (4107); a host serves one port of a listener once (4109); a backend a policy
 * forwards to cannot be released (4110); TCP and UDP listeners take no policies (4112), and a
 * policy needs backends (4077). All of these take effect at once.
 */
import { enumParam } from './actions-compute.js';
import { BACKEND_NOT_FOUND, findLb, findVServer, listOf, policyHome, vserversOf } from './lb-objects.js';
import { label, newId, remove, visible } from './network-objects.js';
import { ApiError, paramError, type ActionHandler, type ActionRequest } from './request.js';
import type { Rec } from './seed-util.js';

const METHODS = ['Roundrobin', 'Source', 'ConsistentHash', 'SourcePort', 'ConsistentHashPort', 'WeightRoundrobin', 'Leastconn', 'Backup'];

/** An integer parameter within bounds; undefined when not sent. */
function bounded(req: ActionRequest, name: string, min: number, max: number): number | undefined {
  const value = req.int(name);
  if (value !== undefined && (value < min || value > max)) throw paramError(name, `must be ${min}-${max}`);
  return value;
}

/** The settings both CreateVServer and UpdateVServerAttribute take, as the record names them. */
function vserverSettings(req: ActionRequest): Rec {
  const fields: Rec = {
    VServerName: label(req, 'VServerName'),
    Method: enumParam(req, 'Method', METHODS),
    PersistenceType: enumParam(req, 'PersistenceType', ['None', 'ServerInsert', 'UserDefined']),
    PersistenceInfo: req.str('PersistenceInfo'),
    ClientTimeout: bounded(req, 'ClientTimeout', 0, 86400),
    MonitorType: enumParam(req, 'MonitorType', ['Port', 'Path', 'Ping', 'Customize']),
    Domain: req.str('Domain'),
    Path: req.str('Path'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** The backend of a balancer that the `BackendId` parameter names, with its listener, or 4093. */
function findBackend(req: ActionRequest, lb: Rec): { vs: Rec; backend: Rec } {
  const id = req.required('BackendId');
  for (const vs of vserversOf(lb)) {
    const backend = listOf(vs, 'BackendSet').find((b) => b.BackendId === id);
    if (backend) return { vs, backend };
  }
  throw new ApiError(BACKEND_NOT_FOUND, `backend [${id}] not exists in ULB [${String(lb.ULBId)}]`);
}

/** The `BackendId.N` list, each a backend of the listener. */
function policyBackends(req: ActionRequest, vs: Rec): Rec[] {
  return req.list('BackendId').map((id, i) => {
    const backend = listOf(vs, 'BackendSet').find((b) => b.BackendId === id);
    if (!backend) throw paramError(`BackendId.${i}`, `backend [${id}] is not a backend of VServer [${String(vs.VServerId)}]`);
    return backend;
  });
}

/** Listener, backend and policy Actions by name. */
export const lbVServerActions: Record<string, ActionHandler> = {
  CreateVServer(req, ctx) {
    const lb = findLb(req, ctx);
    const protocol = enumParam(req, 'Protocol', ['HTTP', 'HTTPS', 'TCP', 'UDP']) ?? 'HTTP';
    const port = bounded(req, 'FrontendPort', 1, 65535) ?? 80;
    const listenType = enumParam(req, 'ListenType', ['RequestProxy', 'PacketsTransmit']) ?? lb.ListenType;
    if (listenType === 'PacketsTransmit' && (protocol === 'HTTP' || protocol === 'HTTPS')) throw paramError('Protocol', `${protocol} needs ListenType RequestProxy`);
    if (vserversOf(lb).some((v) => v.FrontendPort === port && (v.Protocol === 'UDP') === (protocol === 'UDP')))
      throw new ApiError(4107, `port ${port} is already used by a VServer of ULB [${String(lb.ULBId)}]`);
    const id = newId('vserver');
    vserversOf(lb).push({
      VServerId: id,
      VServerName: 'VServer',
      ULBId: lb.ULBId,
      Protocol: protocol,
      ListenType: listenType,
      FrontendPort: port,
      ForwardPort: 0,
      ClientTimeout: 60,
      Method: 'Roundrobin',
      PersistenceType: 'None',
      PersistenceInfo: '',
      MonitorType: 'Port',
      Domain: '',
      Path: '',
      RequestMsg: '',
      ResponseMsg: '',
      Status: 0,
      BackendSet: [],
      PolicySet: [],
      SSLSet: [],
      ...vserverSettings(req),
    });
    return { VServerId: id };
  },

  UpdateVServerAttribute(req, ctx) {
    const vs = findVServer(req, findLb(req, ctx));
    Object.assign(vs, vserverSettings(req));
    return {};
  },

  DeleteVServer(req, ctx) {
    const lb = findLb(req, ctx);
    const vs = findVServer(req, lb);
    for (const ssl of ctx.db.ssls) ssl.BindedTargetSet = ((ssl.BindedTargetSet as Rec[] | undefined) ?? []).filter((t) => t.VServerId !== vs.VServerId);
    remove(vserversOf(lb), vs);
    return {};
  },

  AllocateBackend(req, ctx) {
    const lb = findLb(req, ctx);
    const vs = findVServer(req, lb);
    const type = enumParam(req, 'ResourceType', ['UHost', 'UNI', 'UPM', 'UHybrid', 'CUBE', 'IP']) ?? req.required('ResourceType');
    if (type !== 'UHost') throw paramError('ResourceType', 'this sandbox serves UHost backends');
    const resourceId = req.required('ResourceId');
    const host = visible(ctx.db.hosts, req, ctx).find((h) => h.UHostId === resourceId);
    if (!host) throw paramError('ResourceId', `UHost [${resourceId}] not exists`);
    const port = bounded(req, 'Port', 1, 65535) ?? 80;
    const backends = listOf(vs, 'BackendSet');
    if (backends.some((b) => b.ResourceId === resourceId && b.Port === port))
      throw new ApiError(4109, `UHost [${resourceId}] is already a backend of VServer [${String(vs.VServerId)}] on port ${port}`);
    const ip = ((host.IPSet as Rec[] | undefined) ?? []).find((i) => i.Type === 'Private') ?? (host.IPSet as Rec[] | undefined)?.[0] ?? {};
    const id = newId('backend');
    backends.push({
      BackendId: id,
      ResourceId: resourceId,
      ResourceName: host.Name,
      ResourceType: type,
      Port: port,
      PrivateIP: ip.IP ?? '',
      Status: 0,
      Enabled: bounded(req, 'Enabled', 0, 1) ?? 1,
      IsBackup: bounded(req, 'IsBackup', 0, 1) ?? 0,
      Weight: bounded(req, 'Weight', 1, 100) ?? 1,
      SubnetId: ip.SubnetId ?? '',
      VPCId: ip.VPCId ?? lb.VPCId,
    });
    return { BackendId: id };
  },

  UpdateBackendAttribute(req, ctx) {
    const { backend } = findBackend(req, findLb(req, ctx));
    const fields: Rec = { Port: bounded(req, 'Port', 1, 65535), Weight: bounded(req, 'Weight', 1, 100), Enabled: bounded(req, 'Enabled', 0, 1), IsBackup: bounded(req, 'IsBackup', 0, 1) };
    Object.assign(backend, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
    return {};
  },

  ReleaseBackend(req, ctx) {
    const { vs, backend } = findBackend(req, findLb(req, ctx));
    const using = listOf(vs, 'PolicySet').find((p) => listOf(p, 'BackendSet').some((b) => b.BackendId === backend.BackendId));
    if (using) throw new ApiError(4110, `backend [${String(backend.BackendId)}] is used by policy [${String(using.PolicyId)}]: remove it from the policy first`);
    remove(listOf(vs, 'BackendSet'), backend);
    return {};
  },

  CreatePolicy(req, ctx) {
    const vs = findVServer(req, findLb(req, ctx));
    if (vs.Protocol !== 'HTTP' && vs.Protocol !== 'HTTPS') throw new ApiError(4112, `VServer [${String(vs.VServerId)}] is ${String(vs.Protocol)}: content-forwarding policies need HTTP or HTTPS`);
    const backends = policyBackends(req, vs);
    if (!backends.length) throw new ApiError(4077, 'a content-forwarding policy cannot be added without backend nodes');
    const id = newId('policy');
    listOf(vs, 'PolicySet').push({
      PolicyId: id,
      Type: enumParam(req, 'Type', ['Domain', 'Path']) ?? 'Domain',
      Match: req.required('Match'),
      PolicyType: 'Custom',
      PolicyPriority: bounded(req, 'PolicyPriority', 1, 9999) ?? 0,
      DomainMatchMode: enumParam(req, 'DomainMatchMode', ['Regular', 'Wildcard']) ?? 'Regular',
      VServerId: vs.VServerId,
      TotalCount: backends.length,
      BackendSet: backends.map((b) => ({ ...b })),
    });
    return { PolicyId: id };
  },

  UpdatePolicy(req, ctx) {
    const vs = findVServer(req, findLb(req, ctx));
    const id = req.required('PolicyId');
    const policy = listOf(vs, 'PolicySet').find((p) => p.PolicyId === id);
    if (!policy) throw paramError('PolicyId', `policy [${id}] is not a policy of VServer [${String(vs.VServerId)}]`);
    // The list is the policy's whole set of backends: an empty one clears them.
    const backends = policyBackends(req, vs);
    Object.assign(policy, { Match: req.required('Match'), BackendSet: backends.map((b) => ({ ...b })), TotalCount: backends.length });
    const fields: Rec = {
      Type: enumParam(req, 'Type', ['Domain', 'Path', 'Default']),
      DomainMatchMode: enumParam(req, 'DomainMatchMode', ['Regular', 'Wildcard']),
      PolicyPriority: bounded(req, 'PolicyPriority', 1, 9999),
    };
    Object.assign(policy, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
    return {};
  },

  // DeletePolicy takes no ULBId: the policy is found among every balancer of the scope.
  DeletePolicy(req, ctx) {
    const id = req.required('PolicyId');
    const home = policyHome(req, ctx, id);
    const vserverId = req.str('VServerId');
    if (!home || (vserverId !== undefined && home.vs.VServerId !== vserverId)) throw paramError('PolicyId', `policy [${id}] not exists`);
    remove(listOf(home.vs, 'PolicySet'), home.policy);
    return {};
  },
};
