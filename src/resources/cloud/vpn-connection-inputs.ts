/**
 * A VPN connection's inputs and how they go on the wire: the IKE and IPSec settings of
 * CreateVPNTunnel and UpdateVPNTunnelAttribute, with the API's defaults and ranges.
 */
import * as z from 'zod';
import { nameField, remarkField, tagField } from './kit.js';

const ALGORITHMS = ['aes128', 'aes192', 'aes256', 'aes512', '3des'] as const;
const HASHES = ['md5', 'sha1', 'sha2-256'] as const;
const GROUPS = ['1', '2', '5', '14', '15', '16'] as const;
const PSK = /^[A-Za-z0-9!@#$%^&*()_+\-={}[\]:,./'~]{1,128}$/;
const CIDR = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\/\d{1,2}$/;

/** The IKE and IPSec settings' defaults, as the API applies them when they are left out. */
export const TUNNEL_DEFAULTS = {
  ikeVersion: 'ikev1',
  ikeExchangeMode: 'main',
  ikeEncryptionAlgorithm: 'aes128',
  ikeAuthenticationAlgorithm: 'sha1',
  ikeDhGroup: '15',
  ikeSaLifetime: 86400,
  ikeLocalId: 'auto',
  ikeRemoteId: 'auto',
  ipsecProtocol: 'esp',
  ipsecEncryptionAlgorithm: 'aes128',
  ipsecAuthenticationAlgorithm: 'sha1',
  ipsecPfsDhGroup: 'disable',
  ipsecSaLifetime: 3600,
  ipsecCloseAction: 'none',
} as const;

/** The inputs' object, before the checks across fields. */
const fields = z.object({
  vpnGatewayId: z.string().min(1).describe('VPN gateway (`vpngw-…`). Required.'),
  customerGatewayId: z.string().min(1).describe('Customer gateway (`remotevpngw-…`). Required.'),
  vpcId: z.string().min(1).describe("The VPN gateway's VPC (`uvnet-…`). Required."),
  name: nameField(),
  tag: tagField(),
  remark: remarkField('Default empty.'),
  preSharedKey: z.string().regex(PSK, "preSharedKey must be 1-128 characters of A-Z a-z 0-9 !@#$%^&*()_+-={}[]:,./'~").describe(`The IKE pre-shared key. A secret. Required.`),
  ikeVersion: z.enum(['ikev1', 'ikev2']).optional().describe(`\`ikev1\` or \`ikev2\`. Default \`ikev1\`.`),
  ikeExchangeMode: z.enum(['main', 'aggressive']).optional().describe(`IKE v1 negotiation mode. Default \`main\`.`),
  ikeEncryptionAlgorithm: z.enum(ALGORITHMS).optional().describe(`Default \`aes128\`.`),
  ikeAuthenticationAlgorithm: z.enum(HASHES).optional().describe(`Default \`sha1\`.`),
  ikeDhGroup: z.enum(GROUPS).optional().describe(`Diffie-Hellman group. Default \`15\`.`),
  ikeSaLifetime: z.number().int().min(600).max(604800).optional().describe(`IKE SA lifetime in seconds, 600-604800. Default 86400.`),
  ikeLocalId: z.string().min(1).optional().describe(`Local identity: \`auto\` or an IP address or domain (IKE v2 needs one). Default \`auto\`.`),
  ikeRemoteId: z.string().min(1).optional().describe(`Remote identity, as ikeLocalId. Default \`auto\`.`),
  ipsecLocalSubnetIds: z.array(z.string().min(1)).min(1).max(10).describe(`Subnets of the VPC (1-10) the tunnel carries. Required.`),
  ipsecRemoteSubnets: z.array(z.string().regex(CIDR, 'a CIDR block such as 192.168.0.0/24')).min(1).max(20).describe(`The customer's ranges (1-20 CIDR blocks). Required.`),
  ipsecProtocol: z.enum(['esp', 'ah']).optional().describe(`Default \`esp\`.`),
  ipsecEncryptionAlgorithm: z.enum(ALGORITHMS).optional().describe(`Default \`aes128\`.`),
  ipsecAuthenticationAlgorithm: z.enum(HASHES).optional().describe(`Default \`sha1\`.`),
  ipsecPfsDhGroup: z
    .enum(['disable', ...GROUPS])
    .optional()
    .describe(`PFS group, or \`disable\`. Default \`disable\`.`),
  ipsecSaLifetime: z.number().int().min(1200).max(604800).optional().describe(`IPSec SA lifetime in seconds, 1200-604800. Default 3600.`),
  ipsecSaLifetimeBytes: z.number().int().min(8000).max(20000000).optional().describe(`IPSec SA lifetime in bytes, 8000-20000000. Default none.`),
  ipsecCloseAction: z
    .enum(['none', 'restart'])
    .optional()
    .describe(`What the tunnel does when closed: \`none\` (traffic brings it up again) or \`restart\`. Not reported by the API, so not seen as drift. Default \`none\`.`),
});

/** Inputs of a VPN connection; IKE v2 needs both identities named. */
export const vpnConnectionInputs = fields.superRefine((c, issue) => {
  if (c.ikeVersion !== 'ikev2') return;
  for (const key of ['ikeLocalId', 'ikeRemoteId'] as const) {
    if (c[key] === undefined || c[key] === 'auto') issue.addIssue({ code: 'custom', path: [key], message: `${key} must be an IP address or domain with ikev2 (auto is for ikev1 only)` });
  }
});

/** Inputs of a VPN connection. */
export type VpnConnectionInputs = z.output<typeof vpnConnectionInputs>;

const IKE_VERSIONS = { ikev1: 'IKE V1', ikev2: 'IKE V2' } as const;

/** The IKE and IPSec parameters of CreateVPNTunnel and UpdateVPNTunnelAttribute, defaults filled in. */
export function tunnelParams(c: VpnConnectionInputs): Record<string, unknown> {
  const d = { ...TUNNEL_DEFAULTS, ...Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) } as VpnConnectionInputs & typeof TUNNEL_DEFAULTS;
  return {
    IKEVersion: IKE_VERSIONS[d.ikeVersion],
    IKEPreSharedKey: c.preSharedKey,
    // IKE v2 has no exchange mode.
    IKEExchangeMode: d.ikeVersion === 'ikev1' ? d.ikeExchangeMode : undefined,
    IKEEncryptionAlgorithm: d.ikeEncryptionAlgorithm,
    IKEAuthenticationAlgorithm: d.ikeAuthenticationAlgorithm,
    IKEDhGroup: d.ikeDhGroup,
    IKESALifetime: String(d.ikeSaLifetime),
    IKELocalId: d.ikeLocalId,
    IKERemoteId: d.ikeRemoteId,
    IPSecLocalSubnetIds: c.ipsecLocalSubnetIds,
    IPSecRemoteSubnets: c.ipsecRemoteSubnets,
    IPSecProtocol: d.ipsecProtocol,
    IPSecEncryptionAlgorithm: d.ipsecEncryptionAlgorithm,
    IPSecAuthenticationAlgorithm: d.ipsecAuthenticationAlgorithm,
    IPSecPFSDhGroup: d.ipsecPfsDhGroup,
    IPSecSALifetime: String(d.ipsecSaLifetime),
    IPSecSALifetimeBytes: c.ipsecSaLifetimeBytes === undefined ? undefined : String(c.ipsecSaLifetimeBytes),
    IPSecCloseAction: d.ipsecCloseAction,
  };
}
