/**
 * Load balancer certificates as DescribeSSL sends them, and the calls that read them: shared by
 * the LbSsl resource and the getLbSsls lookup. DescribeSSL takes one SSLId, or none for all.
 */
import type { CloudClient } from '../client.js';

/** One certificate (the SDK's ULBSSLSet; every field is sent). */
export interface SslInfo extends Record<string, unknown> {
  SSLId: string;
  SSLName: string;
  SSLType: string;
  HashValue: string;
  /** Unix seconds. */
  CreateTime: number;
  /** The listeners it is bound to. */
  BindedTargetSet: Array<{ ULBId: string; VServerId: string }>;
}

/** Every certificate, through every page. */
export function listSsls(client: CloudClient): Promise<SslInfo[]> {
  return client.pageAll<SslInfo>('DescribeSSL', {}, 'DataSet');
}

/** One certificate; DescribeSSL answers an unknown id with an empty set. */
export async function describeSsl(client: CloudClient, id: string): Promise<SslInfo | undefined> {
  const body = await client.call<{ DataSet?: SslInfo[] }>('DescribeSSL', { SSLId: id });
  return (body.DataSet ?? []).find((s) => s.SSLId === id);
}
