/**
 * A VXC's recorded inputs in the manifest's terms (the type's `asDeclared` rule), used by plan
 * and by update alike: what the API chose for an end the manifest leaves to it, the documented
 * defaults, and the inputs the API never reports.
 */
import { defaultsAsDeclared, leftToApi } from '../as-declared.js';
import { reveal } from '../../kernel/values.js';
import type { PartnerConfig } from './vxc-partner-config.js';

type Inputs = Record<string, unknown>;

/** The connection type the API reports for each partner kind (aws: the ordered one). */
const CONNECT_TYPES: Record<string, string[]> = {
  aws: ['AWS', 'AWSHC'],
  azure: ['AZURE'],
  google: ['GOOGLE'],
  oracle: ['ORACLE'],
  ibm: ['IBM'],
  transit: ['TRANSIT'],
  vrouter: ['VROUTER'],
  'a-end': ['VROUTER'],
};

/**
 * Whether the API reports, at this end, a connection of the kind `cfg` configures: a cloud or
 * transit connection of that type, or router interfaces (a VXC ordered without a router config
 * reports none, and a first one is then a change to send).
 */
export function reportsConfig(cspConnections: unknown, side: 'a' | 'b', cfg: PartnerConfig | undefined): boolean {
  if (!cfg || !Array.isArray(cspConnections)) return false;
  const plain = reveal(cfg) as PartnerConfig;
  const wanted = plain.partner === 'aws' ? [plain.connectType ?? 'AWS'] : (CONNECT_TYPES[plain.partner] ?? []);
  const atEnd = (c: Record<string, unknown>) => c.resource_name === undefined || String(c.resource_name).startsWith(`${side}_`);
  return cspConnections.some((raw) => {
    const c = raw as Record<string, unknown>;
    if (!c || !atEnd(c) || !wanted.includes(String(c.connectType).toUpperCase())) return false;
    return c.connectType !== 'VROUTER' || (Array.isArray(c.interfaces) && c.interfaces.length > 0);
  });
}

/** An end field the API allocates when left out (0 asks for it), and defaults of the others. */
const END_ALLOCATED = { vlan: [0], requestedProductUid: [] } as const;
const END_DEFAULTS = { innerVlan: -1, vnicIndex: 0 } as const;
/**
 * A VXC's recorded inputs as the manifest would state them. Per end: a VLAN or B-End product the
 * manifest leaves to the API (or a VLAN of 0), or a whole B-End it leaves out, is whatever the API
 * chose; inner VLAN -1 and vNIC
 * 0 are the defaults. Shutdown false is the default. A partner config state lacks (an imported
 * VXC: the API reports none as an input) is the manifest's when the API reports a connection of
 * that kind at that end (README: taken from the manifest without a call).
 */
export function vxcAsDeclared<T extends Inputs>(recorded: T, outputs: Inputs, desired: T): T {
  let out: Inputs = defaultsAsDeclared(recorded, desired, { shutdown: false });
  for (const side of ['a', 'b'] as const) {
    const end = `${side}End`;
    const was = out[end] as Inputs | undefined;
    const want = desired[end] as Inputs | undefined;
    // A B-End the manifest leaves out is the port its service key or cloud key found.
    const allocated = want ? leftToApi(was, want, END_ALLOCATED) : undefined;
    const declared = allocated && want ? defaultsAsDeclared(allocated, want, END_DEFAULTS) : allocated;
    if (declared !== was) {
      out = { ...out, [end]: declared };
      if (declared === undefined) delete out[end];
    }
    const cfg = `${end}PartnerConfig`;
    if (out[cfg] === undefined && desired[cfg] !== undefined && reportsConfig(outputs.cspConnections, side, desired[cfg] as PartnerConfig)) {
      out = { ...out, [cfg]: desired[cfg] };
    }
  }
  return out as T;
}
