import { closestName } from '../../kernel/did-you-mean.js';
import type { CrossCheckView, CrossProblem, StackResource } from '../../engine/contracts/resource-type.js';

/*
 * What the interconnect API refuses only when an order is placed, checked before any order from
 * the manifest and state: a VLAN another VXC or IX already uses on the same port, a rate limit
 * above what the port or MCR at an end carries, a BGP filter naming a prefix filter list its MCR
 * does not have, a vNIC at an end that is not an MVE (or one the MVE lacks), a partner config
 * its end does not take, a VXC to a cloud partner port without the partner config the API
 * requires, an exchange outside the metro of its port. An end or port named by its UID, outside
 * the stack, is read (a partner port, else a product of the account) and checked the same way.
 * Values not known yet (Unknown) decide nothing.
 */

const PORT = 'interconnect:index/port:Port';
const LAG = 'interconnect:index/lagPort:LagPort';
const MCR = 'interconnect:index/mcr:Mcr';
const VXC = 'interconnect:index/vxc:Vxc';
const IX = 'interconnect:index/ix:Ix';
const MVE = 'interconnect:index/mve:Mve';
const GET_PARTNER = 'interconnect:index/getPartner:getPartner';
const GET_IX_POINTS = 'interconnect:index/getIxPoints:getIxPoints';
const GET_PRODUCT = 'interconnect:index/getProduct:getProduct';
const GET_LOCATIONS = 'interconnect:index/getLocations:getLocations';
const LIST = 'interconnect:index/mcrPrefixFilterList:McrPrefixFilterList';
const LIST_KEYS = ['importWhitelist', 'importBlacklist', 'exportWhitelist', 'exportBlacklist'];

type Inputs = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && v.constructor === Object;
const field = (v: unknown, key: string): unknown => (isObject(v) ? v[key] : undefined);

/** The inputs a resource will have: as declared, else as recorded. */
const inputsOf = (r: StackResource): Inputs | undefined => r.desired ?? r.recorded?.inputs;

/** Who a product is, so that a reference and a recorded UID of the same port compare equal. */
function productKey(value: unknown, view: CrossCheckView): string | undefined {
  const r = view.resolve(value);
  if (r) return `@${r.address}`;
  return typeof value === 'string' ? `#${value}` : undefined;
}

/** A VLAN a resource uses on a product: at a VXC end, or an IX's; `path` is the input that asks for it. */
interface VlanUse {
  product: unknown;
  vlan: number;
  path: string[];
}

/** The VLANs a VXC or IX uses (2 to 4093, or -1 untagged); an allocated VLAN (0 or none) is its recorded one. */
function vlanUses(token: string, inputs: Inputs | undefined, outputs?: Inputs): VlanUse[] {
  const vlan = (declared: unknown, current: unknown): number | undefined => {
    const v = typeof declared === 'number' && declared !== 0 ? declared : current;
    return typeof v === 'number' && v !== 0 ? v : undefined;
  };
  if (token === IX) {
    const v = vlan(field(inputs, 'vlan'), undefined);
    return v === undefined ? [] : [{ product: field(inputs, 'requestedProductUid'), vlan: v, path: ['vlan'] }];
  }
  if (token !== VXC) return [];
  const uses: VlanUse[] = [];
  for (const [end, current] of [
    ['aEnd', 'aEndCurrent'],
    ['bEnd', 'bEndCurrent'],
  ]) {
    const v = vlan(field(field(inputs, end), 'vlan'), field(field(outputs, current), 'vlan'));
    const product = field(field(inputs, end), 'requestedProductUid') ?? field(field(outputs, current), 'productUid');
    if (v !== undefined) uses.push({ product, vlan: v, path: [end, 'vlan'] });
  }
  return uses;
}

/** A VLAN used on a port by a declared or recorded resource, as the stack's index holds it. */
interface VlanHolder {
  other: StackResource;
  declared: boolean;
}

/** Who uses each VLAN of each port (`<product key> <vlan>`), made once per plan from every resource of the stack. */
function vlanHolders(view: CrossCheckView): Map<string, VlanHolder[]> {
  return view.memo('interconnect: VLANs by port', () => {
    const held = new Map<string, VlanHolder[]>();
    for (const other of view.resources) {
      const declared = other.desired !== undefined;
      const uses = declared ? vlanUses(other.token, other.desired) : vlanUses(other.token, other.recorded?.inputs, other.recorded?.outputs);
      for (const use of uses) {
        const key = productKey(use.product, view);
        if (!key) continue;
        const at = `${key} ${use.vlan}`;
        if (!held.has(at)) held.set(at, []);
        held.get(at)!.push({ other, declared });
      }
    }
    return held;
  });
}

/** A VLAN this resource asks for that another declared or recorded resource already uses on the same port. */
function vlanClashes(token: string, desired: Inputs, view: CrossCheckView): CrossProblem[] {
  const problems: CrossProblem[] = [];
  for (const use of vlanUses(token, desired)) {
    const key = productKey(use.product, view);
    if (!key) continue;
    const told = new Set<string>();
    for (const { other, declared } of vlanHolders(view).get(`${key} ${use.vlan}`) ?? []) {
      // Between two declared resources, the one whose address sorts later is told, once.
      if (other.address === view.address || told.has(other.address) || (declared && other.address > view.address)) continue;
      told.add(other.address);
      const port = view.resolve(use.product)?.address ?? String(use.product);
      const why = declared ? '' : other.address.includes('~') ? ' (recorded, set aside by a replacement)' : ' (recorded; this manifest no longer declares it)';
      problems.push({
        path: use.path,
        message: `VLAN ${use.vlan} is already used on ${port} by ${other.address}${why}`,
        detail: declared
          ? 'a VLAN carries one connection per port: choose another VLAN, or leave it out for the API to allocate one'
          : `the order would be refused while ${other.address} exists: choose another VLAN; if ${other.address} is this connection under another name, plumb state mv ${other.address} ${view.address}`,
      });
    }
  }
  return problems;
}

/** The capacity of a port, LAG or MCR in Mbps (a LAG's is its ports' together); undefined for anything else or not known. */
function capacity(r: StackResource | undefined): { mbps: number; what: string } | undefined {
  const inputs = r && inputsOf(r);
  const speed = field(inputs, 'portSpeed');
  if (!r || typeof speed !== 'number') return undefined;
  if (r.token === PORT) return { mbps: speed, what: `${r.address} (a Port)` };
  if (r.token === MCR) return { mbps: speed, what: `${r.address} (an MCR)` };
  const count = field(inputs, 'lagCount');
  if (r.token === LAG && typeof count === 'number') return { mbps: speed * count, what: `${r.address} (a LAG of ${count} × ${speed} Mbps)` };
  return undefined;
}

/** A rate limit above what the product at an end carries. */
function rateAboveSpeed(token: string, desired: Inputs, view: CrossCheckView): CrossProblem[] {
  const rate = desired.rateLimit;
  if (typeof rate !== 'number') return [];
  const ends = token === IX ? [desired.requestedProductUid] : [field(desired.aEnd, 'requestedProductUid'), field(desired.bEnd, 'requestedProductUid')];
  const problems: CrossProblem[] = [];
  for (const end of ends) {
    const cap = capacity(view.resolve(end));
    if (cap && rate > cap.mbps) {
      problems.push({
        path: ['rateLimit'],
        message: `rateLimit ${rate} is more than the ${cap.mbps} Mbps of ${cap.what}`,
        detail: `the API refuses a ${token === IX ? 'connection' : 'VXC'} faster than its ends: at most ${cap.mbps}`,
      });
    }
  }
  return problems;
}

/**
 * The descriptions of the prefix filter lists an MCR will have, from the manifest and state (and
 * its deprecated inline lists); `complete` when nothing else can exist: an MCR this plan orders.
 */
function knownLists(mcr: StackResource, view: CrossCheckView): { names: Set<string>; complete: boolean; unknown: boolean } {
  const names = new Set<string>();
  let unknown = false;
  const add = (d: unknown) => (typeof d === 'string' ? names.add(d) : (unknown = true));
  for (const list of [...((field(mcr.desired, 'prefixFilterLists') as unknown[] | undefined) ?? []), ...((field(mcr.recorded?.inputs, 'prefixFilterLists') as unknown[] | undefined) ?? [])])
    add(field(list, 'description'));
  for (const list of listsByMcr(view).get(mcr) ?? []) add(field(inputsOf(list), 'description'));
  return { names, complete: view.stateRead && !mcr.recorded, unknown };
}

/** The prefix filter lists of the stack by the MCR they belong to (a reference to it, or its recorded UID), made once per plan. */
function listsByMcr(view: CrossCheckView): Map<StackResource, StackResource[]> {
  return view.memo('interconnect: prefix filter lists by MCR', () => {
    const lists = new Map<StackResource, StackResource[]>();
    for (const list of view.resources) {
      const mcr = list.token === LIST ? view.resolve(field(inputsOf(list), 'mcrId')) : undefined;
      if (!mcr) continue;
      if (!lists.has(mcr)) lists.set(mcr, []);
      lists.get(mcr)!.push(list);
    }
    return lists;
  });
}

/** The lists a recorded MCR has now, read through the lookup; undefined when no read can be made. */
async function listedRemotely(mcr: StackResource, view: CrossCheckView): Promise<string[] | undefined> {
  if (!view.lookup || !mcr.recorded) return undefined;
  const found = await view.lookup('interconnect:index/getMcrPrefixFilterLists:getMcrPrefixFilterLists', { mcrId: mcr.recorded.id });
  const lists = field(found, 'prefixFilterLists');
  return Array.isArray(lists) ? lists.map((l) => field(l, 'description')).filter((d): d is string => typeof d === 'string') : undefined;
}

/** BGP filters of a VXC's MCR ends that name a prefix filter list the MCR will not have. */
async function missingLists(desired: Inputs, view: CrossCheckView): Promise<CrossProblem[]> {
  const problems: CrossProblem[] = [];
  for (const [cfgKey, end] of [
    ['aEndPartnerConfig', 'aEnd'],
    ['bEndPartnerConfig', 'bEnd'],
  ]) {
    const interfaces = field(desired[cfgKey], 'interfaces');
    const mcr = view.resolve(field(desired[end], 'requestedProductUid'));
    if (!Array.isArray(interfaces) || mcr?.token !== MCR) continue;
    const named: Array<{ path: Array<string | number>; name: string }> = [];
    interfaces.forEach((iface, i) => {
      const sessions = field(iface, 'bgpConnections');
      if (!Array.isArray(sessions)) return;
      sessions.forEach((bgp, j) => {
        for (const key of LIST_KEYS) {
          const name = field(bgp, key);
          if (typeof name === 'string') named.push({ path: [cfgKey, 'interfaces', i, 'bgpConnections', j, key], name });
        }
      });
    });
    if (!named.length) continue;
    const known = knownLists(mcr, view);
    let names = [...known.names];
    if (known.unknown || (!known.complete && named.every((n) => known.names.has(n.name)))) continue;
    if (!known.complete) {
      const remote = await listedRemotely(mcr, view);
      if (!remote) continue;
      names = [...new Set([...names, ...remote])];
    }
    for (const { path, name } of named) {
      if (names.includes(name)) continue;
      const hint = closestName(name, names);
      problems.push({
        path,
        message: `MCR ${mcr.address} has no prefix filter list "${name}"`,
        detail: `${hint ? `did you mean "${hint}"? ` : ''}its lists: ${names.map((n) => `"${n}"`).join(', ') || 'none'}`,
      });
    }
  }
  return problems;
}

/** The partner port a UID names, as the getPartner lookup reports it (read once per UID and plan); undefined for any other product, or when no read can be made. */
function partnerPort(uid: string, view: CrossCheckView): Promise<{ connectType?: unknown } | undefined> {
  const lookup = view.lookup;
  if (!lookup) return Promise.resolve(undefined);
  return view.memo(`interconnect: partner port ${uid}`, () =>
    lookup(GET_PARTNER, { productUid: uid }).then(
      (found) => (isObject(found) ? found : undefined),
      () => undefined,
    ),
  );
}

/** A product of the account outside the stack, as the getProduct lookup reports it. */
interface OwnProduct {
  productType?: unknown;
  locationId?: unknown;
  vnics?: unknown;
}

/** A product of the account a UID names, read once per UID and plan; undefined when the account has none (a partner port), or no read can be made. */
function ownProduct(uid: string, view: CrossCheckView): Promise<OwnProduct | undefined> {
  const lookup = view.lookup;
  if (!lookup) return Promise.resolve(undefined);
  return view.memo(`interconnect: product ${uid}`, () =>
    lookup(GET_PRODUCT, { productUid: uid }).then(
      (found) => (isObject(found) ? found : undefined),
      () => undefined,
    ),
  );
}

/** What the product a UID or reference names is, as far as plumb knows. */
interface EndProduct {
  /** The product's type as the API says it: MEGAPORT (a Port or LAG port), MCR2, MVE, VXC, IX; a partner port's is PARTNER. */
  type: string;
  /** The product in words, for a message: `port.main (a Port)`, `product 1a2b… (an MCR)`, `partner port 1a2b… (AZURE)`. */
  what: string;
  /** A partner port's connect type, upper case. */
  connectType?: string;
  /** How many vNICs an MVE has, where known. */
  vnics?: number;
  /** Its location, where known. */
  locationId?: number;
}

/** The API's product type of each resource type that is a product an end can name, and the type in words. */
const PRODUCT_TYPES: Record<string, { type: string; words: string }> = {
  [PORT]: { type: 'MEGAPORT', words: 'a Port' },
  [LAG]: { type: 'MEGAPORT', words: 'a LAG port' },
  [MCR]: { type: 'MCR2', words: 'an MCR' },
  [MVE]: { type: 'MVE', words: 'an MVE' },
  [VXC]: { type: 'VXC', words: 'a VXC' },
  [IX]: { type: 'IX', words: 'an IX' },
};

/** A product type of the API in words. */
function typeInWords(type: string): string {
  return Object.values(PRODUCT_TYPES).find((t) => t.type === type)?.words ?? `a ${type} product`;
}

/**
 * What the product at a VXC end is, whichever way it is named: a resource of the
 * stack, else (named by its UID) a partner port, else a product of the account outside the stack;
 * undefined when not known. Each UID is read once per plan, however many checks ask: as a partner
 * port, then, when it is not one, as a product of the account.
 */
async function productAt(uid: unknown, view: CrossCheckView): Promise<EndProduct | undefined> {
  const resource = view.resolve(uid);
  if (resource) {
    const known = PRODUCT_TYPES[resource.token];
    if (!known) return undefined;
    const inputs = inputsOf(resource);
    const vnics = field(inputs, 'vnics');
    const locationId = field(inputs, 'locationId');
    return {
      type: known.type,
      what: `${resource.address} (${known.words})`,
      vnics: Array.isArray(vnics) ? vnics.length : undefined,
      locationId: typeof locationId === 'number' ? locationId : undefined,
    };
  }
  if (typeof uid !== 'string') return undefined;
  const partner = await partnerPort(uid, view);
  if (partner) {
    const connectType = String(partner.connectType ?? '').toUpperCase();
    return { type: 'PARTNER', what: `partner port ${uid} (${connectType})`, connectType };
  }
  const own = await ownProduct(uid, view);
  if (!own || typeof own.productType !== 'string') return undefined;
  const type = own.productType.toUpperCase();
  return {
    type,
    what: `product ${uid} (${typeInWords(type)})`,
    vnics: Array.isArray(own.vnics) ? own.vnics.length : undefined,
    locationId: typeof own.locationId === 'number' ? own.locationId : undefined,
  };
}

/** A vNIC asked for at an end that is not an MVE (the API refuses aVnicIndex/bVnicIndex there), or one the MVE lacks. */
async function vnicProblems(desired: Inputs, view: CrossCheckView): Promise<CrossProblem[]> {
  const problems: CrossProblem[] = [];
  for (const end of ['aEnd', 'bEnd']) {
    const index = field(desired[end], 'vnicIndex');
    // 0 is the default, which every end has.
    if (typeof index !== 'number' || index === 0) continue;
    const at = await productAt(field(desired[end], 'requestedProductUid'), view);
    if (!at) continue;
    if (at.type === 'MVE') {
      if (at.vnics !== undefined && index >= at.vnics) problems.push({ path: [end, 'vnicIndex'], message: `${at.what} has no vNIC ${index}`, detail: `its vNICs: 0 to ${at.vnics - 1}` });
      continue;
    }
    problems.push({ path: [end, 'vnicIndex'], message: `the ${end === 'aEnd' ? 'A' : 'B'}-End is ${at.what}: only an MVE end has vNICs`, detail: `remove vnicIndex from ${end}` });
  }
  return problems;
}

/** A word with its indefinite article: `an AZURE`, `a GOOGLE`. */
const withArticle = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

/** The connect type a cloud or transit partner config orders (`AWS`, `AZURE`...); undefined for a router config. */
function configConnectType(cfg: Record<string, unknown>): string | undefined {
  const kind = String(cfg.partner);
  if (kind === 'vrouter' || kind === 'a-end') return undefined;
  if (kind === 'aws') return typeof cfg.connectType === 'string' ? cfg.connectType.toUpperCase() : 'AWS';
  return kind.toUpperCase();
}

/**
 * A partner config the product at its end does not take (the API refuses the order): a router
 * config (vrouter, a-end) needs an MCR there; a cloud or transit config, a partner port of its
 * connect type. Not checked for a VXC state records with the same config at the same end: it exists as it is.
 */
async function partnerConfigEnds(desired: Inputs, view: CrossCheckView): Promise<CrossProblem[]> {
  const problems: CrossProblem[] = [];
  const was = view.resources.find((r) => r.address === view.address)?.recorded?.inputs;
  for (const [cfgKey, end] of [
    ['aEndPartnerConfig', 'aEnd'],
    ['bEndPartnerConfig', 'bEnd'],
  ]) {
    const cfg = desired[cfgKey];
    if (!isObject(cfg) || typeof cfg.partner !== 'string') continue;
    const uid = field(desired[end], 'requestedProductUid');
    if (was && field(was[end], 'requestedProductUid') === uid && JSON.stringify(was[cfgKey]) === JSON.stringify(cfg)) continue;
    const at = await productAt(uid, view);
    if (!at) continue;
    const side = end === 'aEnd' ? 'A' : 'B';
    const connectType = configConnectType(cfg);
    if (connectType === undefined) {
      if (at.type !== 'MCR2')
        problems.push({
          path: [cfgKey, 'partner'],
          message: `${withArticle(cfg.partner)} partner config needs an MCR at the ${side}-End, and it is ${at.what}`,
          detail: `put an MCR at ${end}, or remove ${cfgKey}`,
        });
      continue;
    }
    if (at.type !== 'PARTNER')
      problems.push({
        path: [cfgKey, 'partner'],
        message: `${withArticle(cfg.partner)} partner config needs ${withArticle(connectType)} partner port at the ${side}-End, and it is ${at.what}`,
        detail: `remove ${cfgKey}, or put ${withArticle(connectType)} partner port at ${end} (getPartner finds one)`,
      });
    else if (at.connectType && at.connectType !== connectType)
      problems.push({
        path: [cfgKey, 'partner'],
        message: `${withArticle(cfg.partner)} partner config (${connectType}) does not match the ${side}-End, ${at.what}`,
        detail: `give the config of ${withArticle(at.connectType)} port, or put ${withArticle(connectType)} partner port at ${end} (getPartner finds one)`,
      });
  }
  return problems;
}

/** The partner configs the API requires for a VXC to a partner port of each connect type, and the fields they need. */
const CONFIG_NEEDED: Record<string, { partner: string; fields: string }> = {
  AWS: { partner: 'aws', fields: 'type and ownerAccount' },
  AWSHC: { partner: 'aws', fields: 'connectType: AWSHC and ownerAccount' },
  AZURE: { partner: 'azure', fields: 'serviceKey' },
  GOOGLE: { partner: 'google', fields: 'pairingKey' },
  ORACLE: { partner: 'oracle', fields: 'virtualCircuitId' },
  IBM: { partner: 'ibm', fields: 'accountId' },
};

/**
 * A VXC to a cloud partner port without the B-End partner config its order needs (the API refuses
 * it). Not checked for a VXC state records at that port without one: it exists as it is.
 */
async function missingPartnerConfig(desired: Inputs, view: CrossCheckView): Promise<CrossProblem[]> {
  if (desired.bEndPartnerConfig !== undefined || desired.serviceKey !== undefined) return [];
  const uid = field(desired.bEnd, 'requestedProductUid');
  if (typeof uid !== 'string' || view.resolve(uid)) return [];
  const was = view.resources.find((r) => r.address === view.address)?.recorded?.inputs;
  if (was && field(was.bEnd, 'requestedProductUid') === uid && was.bEndPartnerConfig === undefined) return [];
  const port = await partnerPort(uid, view);
  const type = String(port?.connectType ?? '').toUpperCase();
  const needed = CONFIG_NEEDED[type];
  if (!needed) return [];
  return [
    {
      path: ['bEndPartnerConfig'],
      message: `the B-End ${uid} is a ${type} partner port: the API refuses a VXC to it without a partner config`,
      detail: `give bEndPartnerConfig with partner: ${needed.partner} and its ${needed.fields}`,
    },
  ];
}

/** The cross-checks of a VXC: its VLANs, its rate limit, its BGP filters, its vNICs and its partner config. */
export async function vxcCrossCheck(desired: Inputs, view: CrossCheckView): Promise<CrossProblem[]> {
  return [
    ...vlanClashes(VXC, desired, view),
    ...rateAboveSpeed(VXC, desired, view),
    ...(await missingLists(desired, view)),
    ...(await vnicProblems(desired, view)),
    ...(await partnerConfigEnds(desired, view)),
    ...(await missingPartnerConfig(desired, view)),
  ];
}

/** What a lookup answers, read once per plan; undefined when no read can be made or it fails. */
function readOnce(view: CrossCheckView, token: string): Promise<unknown> {
  const lookup = view.lookup;
  if (!lookup) return Promise.resolve(undefined);
  return view.memo(`interconnect: ${token}`, () =>
    Promise.resolve()
      .then(() => lookup(token, {}))
      .catch(() => undefined),
  );
}

/** The metro of the port an IX is on, where its location is known: a resource of the stack, or a product of the account named by its UID. */
async function portMetro(desired: Inputs, view: CrossCheckView): Promise<string | undefined> {
  const uid = desired.requestedProductUid;
  const port = view.resolve(uid);
  // An IX is on a port of the account, never on a partner port: the product is read directly.
  const locationId = port ? field(inputsOf(port), 'locationId') : typeof uid === 'string' ? (await ownProduct(uid, view))?.locationId : undefined;
  if (typeof locationId !== 'number') return undefined;
  const locations = field(await readOnce(view, GET_LOCATIONS), 'locations');
  const here = Array.isArray(locations) ? locations.find((l) => field(l, 'id') === locationId) : undefined;
  const metro = field(here, 'metro');
  return typeof metro === 'string' ? metro : undefined;
}

/**
 * An exchange the API does not have, or one not in the metro of the IX's port (the API refuses
 * both when the order is validated). Not checked for an IX state records on the same exchange and port.
 */
async function exchangeProblems(desired: Inputs, view: CrossCheckView): Promise<CrossProblem[]> {
  const name = desired.networkServiceType;
  if (typeof name !== 'string') return [];
  const was = view.resources.find((r) => r.address === view.address)?.recorded?.inputs;
  if (was && String(was.networkServiceType).toLowerCase() === name.toLowerCase() && was.requestedProductUid === desired.requestedProductUid) return [];
  const listed = field(await readOnce(view, GET_IX_POINTS), 'ixPoints');
  if (!Array.isArray(listed)) return [];
  const points = listed.filter(isObject).map((p) => ({ name: String(p.name), metro: String(p.metro) }));
  const metro = await portMetro(desired, view);
  const inMetro = (m: string) => points.filter((p) => p.metro === m).map((p) => `"${p.name}"`);
  const found = points.find((p) => p.name.toLowerCase() === name.trim().toLowerCase());
  if (!found) {
    const hint = closestName(
      name,
      points.map((p) => p.name),
    );
    const choices = metro ? `the exchanges in ${metro}: ${inMetro(metro).join(', ') || 'none'}` : 'getIxPoints lists them';
    return [{ path: ['networkServiceType'], message: `no Internet Exchange is named "${name}"`, detail: `${hint ? `did you mean "${hint}"? ` : ''}${choices}` }];
  }
  if (metro && found.metro !== metro) {
    return [
      {
        path: ['networkServiceType'],
        message: `${found.name} is in ${found.metro}, not in ${metro}, where the IX's port is`,
        detail: `the exchanges in ${metro}: ${inMetro(metro).join(', ') || 'none'}; or put the IX on a port in ${found.metro}`,
      },
    ];
  }
  return [];
}

/** The cross-checks of an IX: its VLAN on the port, its rate limit and its exchange. */
export async function ixCrossCheck(desired: Inputs, view: CrossCheckView): Promise<CrossProblem[]> {
  return [...vlanClashes(IX, desired, view), ...rateAboveSpeed(IX, desired, view), ...(await exchangeProblems(desired, view))];
}
