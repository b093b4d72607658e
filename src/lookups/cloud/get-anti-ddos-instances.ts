/** getAntiDdosInstances: the anti-DDoS instances of the project. */
import * as z from 'zod';
import { listServiceInfo, type ServiceInfo } from '../../providers/cloud/api/anti-ddos.js';
import { RemoteError } from '../../kernel/errors.js';
import { int, rfc3339, snake, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const instance = z.object({
  id: z.string().describe('Instance id.'),
  name: z.string().describe('Instance name.'),
  area: z.string().describe('`EastChina` or `NorthChina`.'),
  dataCenter: z.string().describe('Data centre.'),
  bandwidth: z.number().int().describe('Service bandwidth, Mbps.'),
  baseDefenceValue: z.number().int().describe('Base defence, Gbps.'),
  maxDefenceValue: z.number().int().describe('Maximum defence, Gbps.'),
  chargeType: z.string().describe('`month` or `year`.'),
  createTime: z.string().describe('RFC 3339.'),
  expireTime: z.string().describe('RFC 3339.'),
  status: z.string().describe('`Started`, `Stopped` or `Expired`.'),
});

const result = z.object({ ...argsShape, ...listResultBase, instances: z.array(instance).describe('The matching instances.') });

function toElement(s: ServiceInfo): z.output<typeof instance> {
  const room = s.EngineRoom?.[0];
  const base = s.DefenceDDosBaseFlowArr?.[0];
  const max = s.DefenceDDosMaxFlowArr?.[0];
  if (room === undefined || base === undefined || max === undefined) {
    throw new RemoteError('invalid', `anti-DDoS instance ${s.ResourceId}: the API reported no data centre or defence values`, { provider: 'cloud' });
  }
  return {
    id: s.ResourceId,
    name: str(s.Name),
    area: str(s.AreaLine),
    dataCenter: room,
    bandwidth: int(s.SrcBandwidth),
    baseDefenceValue: int(base),
    maxDefenceValue: int(max),
    chargeType: snake(s.ChargeType),
    createTime: rfc3339(s.CreateTime),
    expireTime: rfc3339(s.ExpiredTime),
    status: str(s.DefenceStatus),
  };
}

/** Lists anti-DDoS instances (mainland), filtered by ids and nameRegex. */
export const getAntiDdosInstances = cloudLookup({
  name: 'getAntiDdosInstances',
  description: 'Anti-DDoS instances of the project, filtered by ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await listServiceInfo(ctx.client);
    const matches = filterItems(all, { ids: args.ids, idOf: (s) => s.ResourceId, nameRegex: args.nameRegex, nameOf: (s) => s.Name });
    const instances = matches.map(toElement);
    await writeOutputFile(ctx, args.outputFile, instances);
    return { ...args, ...summary(instances.map((i) => i.id)), instances };
  },
});
