/**
 * What the vendor's Go SDK (megaportgo) declares of the interconnect API, as plumb's own table of
 * facts: the JSON field names of its request types, and of its response structs with the JSON
 * type each decodes from. A nested table is an object (or, in a request, each item of a list).
 */

/** A request type: each field, and for an object or a list of objects the fields inside. */
export type RequestFields = { [field: string]: true | RequestFields };

/** The request bodies plumb sends, by what they are. */
export const SDK_REQUESTS = {
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
