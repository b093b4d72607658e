/**
 * Anti-DDoS instances as the API sends them (DescribeNapServiceInfo), and the calls that read
 * them: shared by the anti-DDoS resources and the getAntiDdosInstances lookup.
 */
import type { CloudClient } from '../client.js';

/**
 * One instance, as the vendor's SDK declares it (`services/uads` ServiceInfo): every field is
 * sent. The defence values go to the API as strings and come back as numbers.
 */
export interface ServiceInfo {
  ResourceId: string;
  Name: string;
  AreaLine: string;
  /** One data centre, as the instance was bought with; an empty list is an API fault. */
  EngineRoom: string[];
  SrcBandwidth: number;
  DefenceDDosBaseFlowArr: number[];
  DefenceDDosMaxFlowArr: number[];
  DefenceStatus: string;
  DefenceType: string;
  LineType: string;
  /** `Month` or `Year`. */
  ChargeType: string;
  /** Unix seconds. */
  CreateTime: number;
  /** Unix seconds. */
  ExpiredTime: number;
}

/** Mainland instances: the only NapType plumb manages and looks up. */
const NAP_TYPE = 1;

/** Every instance of the client's project, through every page. */
export function listServiceInfo(client: CloudClient): Promise<ServiceInfo[]> {
  return client.pageAll<ServiceInfo>('DescribeNapServiceInfo', { NapType: NAP_TYPE }, 'ServiceInfo');
}

/** One instance by id, undefined when the API lists nothing for it (that is how it says "gone"). */
export async function describeServiceInfo(client: CloudClient, id: string): Promise<ServiceInfo | undefined> {
  // The single-instance describe must not carry ProjectId, or instances of other projects vanish.
  const body = await client.call<{ ServiceInfo?: ServiceInfo[] }>('DescribeNapServiceInfo', { ResourceId: id, NapType: NAP_TYPE }, { project: false });
  return (body.ServiceInfo ?? []).find((s) => s.ResourceId === id);
}
