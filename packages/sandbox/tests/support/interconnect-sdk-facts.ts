/**
 * What the vendor's Go SDK (megaportgo) declares of the interconnect API, as plumb's own table of
 * facts: the JSON field names of its request types, and of its response structs with the JSON
 * type each decodes from. A nested table is an object (or, in a request, each item of a list).
 */

/** A request type: each field, and for an object or a list of objects the fields inside. */
export type RequestFields = { [field: string]: true | RequestFields };

const resourceTags = { key: true, value: true } as const;
/** One end of a VXC order (VXCOrderEndpointConfiguration with VXCOrderMVEConfig); partner configs are free-form here. */
const vxcOrderEnd = { productUid: true, vlan: true, diversityZone: true, partnerConfig: true, innerVlan: true, vNicIndex: true } as const;

/** The request bodies plumb sends, by what they are. */
export const SDK_REQUESTS = {
  /** One item of a port or LAG validate or buy (PortOrder). */
  portOrder: {
    productName: true,
    term: true,
    productType: true,
    portSpeed: true,
    locationId: true,
    createDate: true,
    virtual: true,
    market: true,
    costCentre: true,
    lagPortCount: true,
    marketplaceVisibility: true,
    config: { diversityZone: true },
    promoCode: true,
    resourceTags,
  },
  /** One item of an MCR validate or buy (MCROrder, MCROrderConfig, its IPsec add-on). */
  mcrOrder: {
    locationId: true,
    productName: true,
    term: true,
    productType: true,
    portSpeed: true,
    costCentre: true,
    promoCode: true,
    marketplaceVisibility: true,
    config: { mcrAsn: true, diversityZone: true },
    addOns: { productUid: true, addOnUid: true, addOnType: true, tunnelCount: true, packCount: true },
    resourceTags,
  },
  /** One item of an MVE validate or buy (MVEOrderConfig; the vendor config differs by vendor). */
  mveOrder: {
    locationId: true,
    productName: true,
    term: true,
    productType: true,
    promoCode: true,
    costCentre: true,
    vnics: { description: true, vlan: true },
    vendorConfig: true,
    config: { diversityZone: true },
    resourceTags,
  },
  /** One item of a VXC validate or buy (VXCOrder, VXCOrderConfiguration). */
  vxcOrder: {
    productUid: true,
    associatedVxcs: { productName: true, serviceKey: true, promoCode: true, rateLimit: true, term: true, shutdown: true, costCentre: true, aEnd: vxcOrderEnd, bEnd: vxcOrderEnd, resourceTags },
  },
  /** `POST /v4/networkdesign/buy` around its items (buyRequestV4). */
  buy: { networkDesign: true, discountCodes: true },
  /** `PUT /v3/product/vxc/{uid}` (VXCUpdate; partner configs are free-form here). */
  vxcUpdate: {
    name: true,
    rateLimit: true,
    costCentre: true,
    shutdown: true,
    aEndVlan: true,
    bEndVlan: true,
    aEndInnerVlan: true,
    bEndInnerVlan: true,
    aEndProductUid: true,
    bEndProductUid: true,
    term: true,
    isApproved: true,
    aVnicIndex: true,
    bVnicIndex: true,
    aEndConfig: true,
    bEndConfig: true,
  },
  /** `PUT /v2/product/{uid}/tags` (UpdateProductResourceTagsRequest). */
  tags: { resourceTags },
  /** `POST /v2/product/mcr2/{uid}/prefixList` and its `PUT …/prefixList/{id}` (MCRPrefixFilterList, MCRPrefixListEntry). */
  prefixList: { id: true, description: true, addressFamily: true, entries: { action: true, prefix: true, ge: true, le: true } },
  /** `POST /v3/product/{uid}/addon` and `PUT …/addon/{addOnUid}`: the SDK's payload. */
  addOn: { addOnType: true, tunnelCount: true },
  /** `POST /v2/service/key` (CreateServiceKeyRequest, OrderValidFor). */
  serviceKeyCreate: { productUid: true, productId: true, singleUse: true, maxSpeed: true, active: true, preApproved: true, description: true, vlan: true, validFor: { start: true, end: true } },
  /** `PUT /v2/service/key` (UpdateServiceKeyRequest). */
  serviceKeyUpdate: { key: true, productUid: true, productId: true, singleUse: true, active: true, validFor: { start: true, end: true } },
  /** One item of an IX validate or buy (IXOrder, AssociatedIXOrder). */
  ixOrder: {
    productUid: true,
    associatedIxs: { productName: true, networkServiceType: true, asn: true, macAddress: true, rateLimit: true, vlan: true, shutdown: true, promoCode: true },
  },
  /** `PUT /v2/product/ix/{uid}` (UpdateIXRequest). */
  ixUpdate: {
    name: true,
    rateLimit: true,
    costCentre: true,
    vlan: true,
    macAddress: true,
    asn: true,
    password: true,
    publicGraph: true,
    reverseDns: true,
    aEndProductUid: true,
    shutdown: true,
  },
  /** `PUT /v2/product/{megaport|mcr2|mve}/{uid}` (ModifyProductRequest, MVEVnicUpdate); the SDK also sends ProductID and ProductType. */
  productModify: {
    ProductID: true,
    ProductType: true,
    name: true,
    costCentre: true,
    marketplaceVisibility: true,
    term: true,
    asn: true,
    vnics: { description: true },
  },
} satisfies Record<string, RequestFields>;

/**
 * A response struct: each field's JSON type. `time` is the SDK's Time, epoch milliseconds; a
 * nested table is an object, one in a list a list of such objects. Go decodes null into any
 * field, and a field absent stays empty, but a value of another JSON type fails the whole reply.
 */
export type JsonType = 'string' | 'number' | 'boolean' | 'time' | 'object' | 'array';
export type ResponseFields = { [field: string]: JsonType | ResponseFields | [JsonType | ResponseFields] };

const locationDetail: ResponseFields = { name: 'string', city: 'string', metro: 'string', country: 'string' };
const portInterface: ResponseFields = {
  demarcation: 'string',
  description: 'string',
  id: 'number',
  loa_template: 'string',
  media: 'string',
  name: 'string',
  port_speed: 'number',
  resource_name: 'string',
  resource_type: 'string',
  up: 'number',
};

/** The fields every product (Port, MCR, MVE) declares. */
const product: ResponseFields = {
  productId: 'number',
  productUid: 'string',
  productName: 'string',
  productType: 'string',
  provisioningStatus: 'string',
  createDate: 'time',
  createdBy: 'string',
  terminateDate: 'time',
  liveDate: 'time',
  market: 'string',
  locationId: 'number',
  usageAlgorithm: 'string',
  marketplaceVisibility: 'boolean',
  vxcpermitted: 'boolean',
  vxcAutoApproval: 'boolean',
  secondaryName: 'string',
  companyUid: 'string',
  companyName: 'string',
  costCentre: 'string',
  contractStartDate: 'time',
  contractEndDate: 'time',
  contractTermMonths: 'number',
  attributeTags: 'object',
  virtual: 'boolean',
  buyoutPort: 'boolean',
  locked: 'boolean',
  adminLocked: 'boolean',
  cancelable: 'boolean',
  diversityZone: 'string',
  locationDetail,
  associatedVxcs: 'array',
  associatedIxs: 'array',
};

const vxcEnd: ResponseFields = {
  ownerUid: 'string',
  productUid: 'string',
  productName: 'string',
  locationId: 'number',
  location: 'string',
  vlan: 'number',
  innerVlan: 'number',
  vNicIndex: 'number',
  secondaryName: 'string',
  locationDetail,
};

/** The response structs megaportgo decodes, by what they describe. */
export const SDK_RESPONSES = {
  /** `GET /v3/locations`, each item (LocationV3). */
  location: {
    id: 'number',
    name: 'string',
    metro: 'string',
    market: 'string',
    status: 'string',
    address: { street: 'string', suburb: 'string', city: 'string', state: 'string', postcode: 'string', country: 'string' },
    latitude: 'number',
    longitude: 'number',
    dataCentre: { id: 'number', name: 'string' },
    diversityZones: 'object',
    productAddOns: 'object',
    orderingMessage: 'string',
  },
  /** One diversity zone of a location (LocationV3DiversityZone; the speed lists are omitempty). */
  diversityZone: { mcrSpeedMbps: ['number'], megaportSpeedMbps: ['number'], mveMaxCpuCoreCount: 'number', mveAvailable: 'boolean', natGatewaySpeedMbps: ['number'] },
  /** `GET /v2/dropdowns/partner/megaports`, each item (PartnerMegaport). */
  partnerPort: {
    connectType: 'string',
    productUid: 'string',
    title: 'string',
    companyUid: 'string',
    companyName: 'string',
    diversityZone: 'string',
    locationId: 'number',
    speed: 'number',
    rank: 'number',
    vxcPermitted: 'boolean',
  },
  /** `GET /v4/product/mve/images`, each of `data.mveImages` (MVEImageProduct, MVEImageVersion). */
  mveImageProduct: {
    product: 'string',
    vendor: 'string',
    vendorProductId: 'string',
    images: [{ id: 'number', version: 'string', productCode: 'string', vendorDescription: 'string', releaseImage: 'boolean', availableSizes: ['string'] }],
  },
  /** `GET /v3/product/mve/variants`, each item (MVESize). */
  mveSize: { size: 'string', label: 'string', cpuCoreCount: 'number', ramGB: 'number' },
  /** `GET /v2/ixp`, each item (IXP). */
  ixp: { id: 'number', asn: 'number', name: 'string', metro: 'string', ipv4_network: 'string', ipv6_network: 'string' },
  /** `GET /v2/product/{uid}` of a port (Port). */
  port: { ...product, portSpeed: 'number', lagPrimary: 'boolean', lagId: 'number', aggregationId: 'number', resources: { interface: portInterface } },
  /** `GET /v2/product/{uid}` of an MCR (MCR). */
  mcr: {
    ...product,
    portSpeed: 'number',
    lagPrimary: 'boolean',
    lagId: 'number',
    aggregationId: 'number',
    resources: { interface: portInterface, virtual_router: { id: 'number', mcrAsn: 'number', name: 'string', resource_name: 'string', resource_type: 'string', speed: 'number' } },
    addOns: [{ productUid: 'string', addOnUid: 'string', addOnType: 'string', tunnelCount: 'number', packCount: 'number' }],
  },
  /** `GET /v2/product/{uid}` of an MVE (MVE). */
  mve: {
    ...product,
    resources: {
      interface: portInterface,
      virtual_machine: [
        {
          id: 'number',
          cpu_count: 'number',
          image: { id: 'number', vendor: 'string', product: 'string', version: 'string' },
          resource_type: 'string',
          up: 'boolean',
          vnics: [{ description: 'string', vlan: 'number' }],
        },
      ],
    },
    vendor: 'string',
    mveSize: 'string',
    vnics: [{ description: 'string', vlan: 'number' }],
  },
  /** `GET /v2/product/{uid}` of a VXC (VXC; its resources have a decoder of their own). */
  vxc: {
    productId: 'number',
    productUid: 'string',
    nServiceId: 'number',
    productName: 'string',
    productType: 'string',
    rateLimit: 'number',
    distanceBand: 'string',
    provisioningStatus: 'string',
    aEnd: vxcEnd,
    bEnd: vxcEnd,
    secondaryName: 'string',
    usageAlgorithm: 'string',
    createdBy: 'string',
    liveDate: 'time',
    createDate: 'time',
    resources: 'object',
    vxcApproval: { status: 'string', message: 'string', uid: 'string', type: 'string', newSpeed: 'number' },
    shutdown: 'boolean',
    contractStartDate: 'time',
    contractEndDate: 'time',
    contractTermMonths: 'number',
    companyUid: 'string',
    companyName: 'string',
    costCentre: 'string',
    locked: 'boolean',
    adminLocked: 'boolean',
    attributeTags: 'object',
    cancelable: 'boolean',
  },
  /** `GET /v2/product/{uid}` of an IX (IX and its resources). */
  ix: {
    productId: 'number',
    productUid: 'string',
    locationId: 'number',
    locationDetail,
    term: 'number',
    locationUid: 'string',
    productName: 'string',
    provisioningStatus: 'string',
    rateLimit: 'number',
    promoCode: 'string',
    createDate: 'time',
    deployDate: 'time',
    secondaryName: 'string',
    attributeTags: 'object',
    vlan: 'number',
    macAddress: 'string',
    ixPeerMacro: 'string',
    asn: 'number',
    networkServiceType: 'string',
    publicGraph: 'boolean',
    usageAlgorithm: 'string',
    resources: {
      interface: { demarcation: 'string', loa_template: 'string', media: 'string', port_speed: 'number', resource_name: 'string', resource_type: 'string', up: 'number', shutdown: 'boolean' },
      bgp_connection: [
        {
          asn: 'number',
          customer_asn: 'number',
          customer_ip_address: 'string',
          isp_asn: 'number',
          isp_ip_address: 'string',
          ix_peer_policy: 'string',
          max_prefixes: 'number',
          resource_name: 'string',
          resource_type: 'string',
        },
      ],
      ip_address: [{ address: 'string', resource_name: 'string', resource_type: 'string', version: 'number', reverse_dns: 'string' }],
      vpls_interface: { mac_address: 'string', rate_limit_mbps: 'number', resource_name: 'string', resource_type: 'string', vlan: 'number', shutdown: 'boolean' },
    },
  },
  /** `GET /v2/product/{uid}/tags` (resourceTagsResponseData). */
  tags: { resourceTags: [{ key: 'string', value: 'string' }] },
  /** `GET /v2/product/mcr2/{uid}/prefixLists`, each item (PrefixFilterList). */
  prefixListSummary: { id: 'number', description: 'string', addressFamily: 'string' },
  /** `GET /v2/product/mcr2/{uid}/prefixList/{id}` (APIMCRPrefixFilterList; ge and le are strings). */
  prefixList: { id: 'number', description: 'string', addressFamily: 'string', entries: [{ action: 'string', prefix: 'string', ge: 'string', le: 'string' }] },
  /** `GET /v2/service/key`, the key or each key (ServiceKey). */
  serviceKey: {
    key: 'string',
    createDate: 'time',
    companyId: 'number',
    companyUid: 'string',
    companyName: 'string',
    description: 'string',
    productId: 'number',
    productUid: 'string',
    productName: 'string',
    vlan: 'number',
    maxSpeed: 'number',
    preApproved: 'boolean',
    singleUse: 'boolean',
    lastUsed: 'time',
    active: 'boolean',
    validFor: { start: 'time', end: 'time' },
    expired: 'boolean',
    valid: 'boolean',
    promoCode: 'string',
  },
  /** `POST /v4/networkdesign/buy`, each item (PortOrderConfirmation and its kin). */
  orderConfirmation: { technicalServiceUid: 'string' },
} satisfies Record<string, ResponseFields>;

/** Fields of each response the SDK decodes but the API may leave out (omitempty, or set only in some cases). */
export const MAY_BE_ABSENT: Partial<Record<keyof typeof SDK_RESPONSES, string[]>> = {
  diversityZone: ['mcrSpeedMbps', 'megaportSpeedMbps', 'mveMaxCpuCoreCount', 'natGatewaySpeedMbps'],
  // No MCR the SDK's fixtures show has an interface: the API describes an MCR's resources by its virtual router.
  mcr: ['addOns', 'resources.interface'],
  // The SDK's MVE fixture has an interface without description, id or name.
  mve: ['resources.interface.description', 'resources.interface.id', 'resources.interface.name'],
};
