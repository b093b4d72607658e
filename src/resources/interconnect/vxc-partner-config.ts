import * as z from 'zod';
import { UserError } from '../../kernel/errors.js';
import { reveal } from '../../kernel/values.js';
import { oneOfText } from '../schema.js';
import { knownPrefixLists } from '../../providers/interconnect/api/prefix-lists.js';
import type { Ctx } from './kit.js';

/**
 * Partner configs of a VXC end (reference §3.4.3): a union on `partner` with the fields of each
 * kind, and their wire form. Prefix filter lists in BGP settings are named by description and
 * resolved to the MCR's numeric list ids just before a call.
 */

const KINDS = 'aws, azure, google, oracle, ibm, transit or vrouter';

const asn = z.number().int().min(1).max(4294967295);
const listRef = z
  .union([z.string().min(1), z.number().int().positive()])
  .optional()
  .describe('A prefix filter list on this MCR, by description (resolved to its id) or by numeric id.');

const bgpConnection = z
  .object({
    peerAsn: asn.describe('ASN of the BGP peer.'),
    localAsn: asn.optional().describe("ASN the MCR presents on this session. Default: the MCR's ASN."),
    localIpAddress: z.string().describe('MCR-side IP address of the session (no prefix length).'),
    peerIpAddress: z.string().describe('Peer IP address of the session (no prefix length).'),
    password: z.string().optional().describe('BGP MD5 password; write-only (never returned). Secret: never shown, encrypted in state.'),
    shutdown: z.boolean().optional().describe('true keeps the session down. Default false.'),
    description: z.string().optional().describe('Free text.'),
    medIn: z.number().int().optional().describe('MED applied to routes received.'),
    medOut: z.number().int().optional().describe('MED sent with routes advertised.'),
    bfdEnabled: z.boolean().optional().describe("Run BFD on this session (settings from the interface's bfd). Default false."),
    exportPolicy: oneOfText(['permit', 'deny'], 'Default for routes exported to this peer: permit or deny.').optional(),
    permitExportTo: z.array(z.string()).optional().describe('Peer IPs routes may be exported to (with exportPolicy deny).'),
    denyExportTo: z.array(z.string()).optional().describe('Peer IPs routes are not exported to (with exportPolicy permit).'),
    importWhitelist: listRef,
    importBlacklist: listRef,
    exportWhitelist: listRef,
    exportBlacklist: listRef,
    asPathPrependCount: z.number().int().min(0).max(10).optional().describe('Times the MCR ASN is prepended to advertised routes: 0 to 10.'),
    peerType: oneOfText(['NON_CLOUD', 'PRIV_CLOUD', 'PUB_CLOUD'], 'Kind of peer: NON_CLOUD, PRIV_CLOUD or PUB_CLOUD.').optional(),
  })
  .strict();

const vrouterInterface = z
  .object({
    description: z.string().optional().describe('Free text.'),
    interfaceType: oneOfText(['subInterface', 'ipSecTunnel'], "subInterface (default) or ipSecTunnel (needs the MCR's IPsec add-on).").optional(),
    ipAddresses: z.array(z.string()).optional().describe('Interface addresses in CIDR form, e.g. 10.0.0.1/30.'),
    ipRoutes: z
      .array(
        z
          .object({ prefix: z.string().describe('Destination prefix (CIDR).'), nextHop: z.string().describe('Next-hop IP address.'), description: z.string().optional().describe('Free text.') })
          .strict(),
      )
      .optional()
      .describe('Static routes.'),
    natIpAddresses: z.array(z.string()).optional().describe('NAT addresses.'),
    bfd: z
      .object({
        txInterval: z.number().int().describe('Transmit interval, ms.'),
        rxInterval: z.number().int().describe('Receive interval, ms.'),
        multiplier: z.number().int().describe('Missed packets before the session is down.'),
      })
      .strict()
      .optional()
      .describe('BFD timers for sessions with bfdEnabled.'),
    vlan: z.number().int().optional().describe('Inner VLAN of the interface.'),
    ipMtu: z.number().int().min(68).max(9074).optional().describe('IP MTU, 68 to 9074.'),
    ipSecTunnelOptions: z
      .object({
        sourceIpAddress: z.string().describe('Tunnel source address.'),
        destinationIpAddress: z.string().describe('Tunnel destination address.'),
        preSharedKey: z.string().optional().describe('Pre-shared key; write-only (never returned). Secret: never shown, encrypted in state.'),
        passive: z.boolean().optional().describe('Wait for the peer to start the tunnel.'),
        localId: z.string().optional().describe('IKE local identity.'),
        remoteId: z.string().optional().describe('IKE remote identity.'),
        phase1Lifetime: z.number().int().min(3600).max(604800).optional().describe('IKE phase 1 lifetime, s: 3600 to 604800. Default 28800.'),
        phase2Lifetime: z.number().int().min(600).max(86400).optional().describe('IKE phase 2 lifetime, s: 600 to 86400. Default 3600.'),
      })
      .strict()
      .optional()
      .describe('Tunnel settings, for interfaceType ipSecTunnel (one object per interface).'),
    bgpConnections: z.array(bgpConnection).optional().describe('BGP sessions on this interface.'),
  })
  .strict();

const interfaces = z.array(vrouterInterface).describe('Interfaces of the MCR on this VXC.');

const aws = z
  .object({
    partner: z.literal('aws'),
    connectType: oneOfText(['AWS', 'AWSHC'], 'AWS (hosted VIF, default) or AWSHC (hosted connection).').optional(),
    type: oneOfText(['private', 'public', 'transit'], 'VIF type: private, public or transit; required for connectType AWS.').optional(),
    ownerAccount: z.string().describe('12-digit AWS account id that owns the connection.'),
    asn: asn.optional().describe('Customer-side ASN.'),
    amazonAsn: asn.optional().describe('Amazon-side ASN.'),
    authKey: z.string().optional().describe('BGP authentication key. Secret: never shown, encrypted in state.'),
    prefixes: z.string().optional().describe('Comma-separated prefixes to announce (public VIF).'),
    customerIpAddress: z.string().optional().describe('Customer peer address (CIDR).'),
    amazonIpAddress: z.string().optional().describe('Amazon peer address (CIDR).'),
    name: z.string().optional().describe('Name of the VIF or connection at AWS.'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.connectType ?? 'AWS') === 'AWS' && v.type === undefined) ctx.addIssue({ code: 'custom', path: ['type'], message: 'type (private, public or transit) is required for connectType AWS' });
  });

const azure = z
  .object({
    partner: z.literal('azure'),
    serviceKey: z.string().describe('ExpressRoute service key; picks the Azure port when bEnd.requestedProductUid is omitted.'),
    portChoice: oneOfText(['primary', 'secondary'], 'Which ExpressRoute port to use: primary (default) or secondary. Used only to find the port.').optional(),
    peers: z
      .array(
        z
          .object({
            type: oneOfText(['private', 'microsoft'], 'Peering type: private or microsoft.'),
            peerAsn: asn.optional().describe('Customer ASN.'),
            primarySubnet: z.string().optional().describe('Primary /30 subnet.'),
            secondarySubnet: z.string().optional().describe('Secondary /30 subnet.'),
            prefixes: z.string().optional().describe('Comma-separated advertised prefixes (microsoft peering).'),
            sharedKey: z.string().optional().describe('BGP shared key. Secret: never shown, encrypted in state.'),
            vlan: z.number().int().optional().describe('Peering VLAN.'),
          })
          .strict(),
      )
      .optional()
      .describe('Peerings to configure.'),
  })
  .strict();

const google = z.object({ partner: z.literal('google'), pairingKey: z.string().describe('Partner Interconnect pairing key (<uuid>/<region>/<1|2>).') }).strict();
const oracle = z.object({ partner: z.literal('oracle'), virtualCircuitId: z.string().describe('OCI FastConnect virtual circuit OCID.') }).strict();
const ibm = z
  .object({
    partner: z.literal('ibm'),
    accountId: z.string().describe('IBM Cloud account id.'),
    customerAsn: asn.optional().describe('Customer ASN.'),
    name: z.string().optional().describe('Name of the Direct Link at IBM.'),
    customerIpAddress: z.string().optional().describe('Customer peer address (CIDR).'),
    providerIpAddress: z.string().optional().describe('IBM peer address (CIDR).'),
  })
  .strict();
const transit = z
  .object({ partner: z.literal('transit') })
  .strict()
  .describe('Internet access through a TRANSIT partner port.');
const vrouter = z.object({ partner: z.literal('vrouter'), interfaces }).strict();
const aEndKind = z.object({ partner: z.literal('a-end'), interfaces }).strict();

/** B-End partner config: one of aws, azure, google, oracle, ibm, transit or vrouter, chosen by `partner`. */
export const bEndPartnerConfig = z
  .discriminatedUnion('partner', [aws, azure, google, oracle, ibm, transit, vrouter])
  .describe(
    `Partner settings of the B-End, chosen by "partner": ${KINDS}. Only a vrouter config is added, changed or removed in place; adding, changing or removing any other kind (or switching kind) replaces the VXC: it is deleted, then ordered again.`,
  );

/** A-End partner config: the B-End kinds plus `a-end` (MCR interfaces at the A-End). */
export const aEndPartnerConfig = z
  .discriminatedUnion('partner', [aws, azure, google, oracle, ibm, transit, vrouter, aEndKind])
  .describe(
    `Partner settings of the A-End, chosen by "partner": ${KINDS}, or a-end. Only a vrouter or a-end config is added, changed or removed in place; adding, changing or removing any other kind (or switching to one) replaces the VXC: it is deleted, then ordered again.`,
  );

/** Any partner config. */
export type PartnerConfig = z.infer<typeof aEndPartnerConfig>;

/** Kinds whose config is a cloud provider's and is fixed once ordered. */
export const CSP_KINDS = ['aws', 'azure', 'google', 'oracle', 'ibm'];

/** Keeps only the keys with a value (the API reads a missing key as unset). */
function defined(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

/** The `partnerConfig` (order) or `aEndConfig`/`bEndConfig` (modify) object for a config. */
export async function wirePartnerConfig(ctx: Ctx, cfg: PartnerConfig, mcrUid: string | undefined): Promise<Record<string, unknown>> {
  switch (cfg.partner) {
    case 'aws': {
      const { partner: _, connectType, ...rest } = cfg;
      return defined({ connectType: connectType ?? 'AWS', ...rest });
    }
    case 'azure':
      return defined({
        connectType: 'AZURE',
        serviceKey: cfg.serviceKey,
        // peer_asn goes as a string, as the vendor SDK's order sends it; the API reads it back as a number.
        peers: cfg.peers?.map((p) =>
          defined({
            type: p.type,
            peer_asn: p.peerAsn === undefined ? undefined : String(p.peerAsn),
            primary_subnet: p.primarySubnet,
            secondary_subnet: p.secondarySubnet,
            prefixes: p.prefixes,
            shared_key: p.sharedKey,
            vlan: p.vlan,
          }),
        ),
      });
    case 'google':
      return { connectType: 'GOOGLE', pairingKey: cfg.pairingKey };
    case 'oracle':
      return { connectType: 'ORACLE', virtualCircuitId: cfg.virtualCircuitId };
    case 'ibm':
      return defined({
        connectType: 'IBM',
        account_id: cfg.accountId,
        customer_asn: cfg.customerAsn,
        name: cfg.name,
        customer_ip_address: cfg.customerIpAddress,
        provider_ip_address: cfg.providerIpAddress,
      });
    case 'transit':
      return { connectType: 'TRANSIT' };
    case 'vrouter':
    case 'a-end':
      return { interfaces: await resolveListNames(ctx, cfg.interfaces, mcrUid) };
  }
}

const LIST_KEYS = ['importWhitelist', 'importBlacklist', 'exportWhitelist', 'exportBlacklist'] as const;

/** Interfaces with every prefix-list description replaced by the MCR's numeric list id. */
async function resolveListNames(ctx: Ctx, list: z.infer<typeof interfaces>, mcrUid: string | undefined): Promise<unknown[]> {
  const named = list.some((i) => i.bgpConnections?.some((b) => LIST_KEYS.some((k) => typeof b[k] === 'string')));
  const lists = named && mcrUid ? await knownPrefixLists(ctx.client, mcrUid) : [];
  const idOf = (name: string) => {
    const found = lists.filter((l) => l.description === name);
    if (found.length === 1) return found[0].id;
    const known = lists.map((l) => `"${l.description}"`).join(', ') || 'none';
    throw new UserError(
      found.length
        ? `prefix filter list "${name}" is ambiguous on MCR ${mcrUid}: ${found.length} lists have that description`
        : `prefix filter list "${name}" does not exist on MCR ${mcrUid ?? '(unknown)'}`,
      `lists on that MCR: ${known}`,
    );
  };
  return list.map((iface) =>
    defined({
      ...iface,
      bgpConnections: iface.bgpConnections?.map((b) => {
        const out: Record<string, unknown> = { ...b };
        for (const k of LIST_KEYS) if (typeof b[k] === 'string') out[k] = idOf(b[k] as string);
        return defined(out);
      }),
    }),
  );
}

/** A comparable rendering of a config: secrets revealed, unset keys dropped, keys sorted. */
export function canonicalConfig(cfg: unknown): string {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object' && v.constructor === Object) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined && (v as Record<string, unknown>)[k] !== null)
          .map((k) => [k, norm((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  // Unknown values (not known until apply) render as their `$unknown` marker, never equal to a known value.
  return JSON.stringify(norm(reveal(cfg)));
}
