/** What the generated lifecycle suite of the interconnect types is known to find, each with its reason (see tests/support/generated-lifecycle.ts). */
import type { KnownProblems } from '../../support/generated-lifecycle.js';

export const known: KnownProblems = {
  failures: {
    'interconnect:index/vxc:Vxc serviceKey add': 'suite: no service key of the world to name (the spec makes none); the made-up key is refused as unknown',
  },
  gaps: {
    'interconnect:index/ix:Ix attributeTags': 'no value its schema and the whole input accept (nor one its spec gives)',
    'interconnect:index/serviceKey:ServiceKey productUid': 'it names an object of the world, and its spec made no second one to point at',
    'interconnect:index/serviceKey:ServiceKey vlan': 'the whole input is not valid without it',
    'interconnect:index/mve:Mve vendorConfig.fmcNatId': 'no value its schema and the whole input accept (nor one its spec gives)',
    'interconnect:index/mcr:Mcr prefixFilterLists[0].addressFamily': 'no other value its schema and the whole input accept',
    'interconnect:index/mcrPrefixFilterList:McrPrefixFilterList addressFamily': 'no other value its schema and the whole input accept',
    'interconnect:index/vxc:Vxc aEnd.requestedProductUid': 'it names an object of the world, and its spec made no second one to point at',
    'interconnect:index/vxc:Vxc bEnd.requestedProductUid': 'it names an object of the world, and its spec made no second one to point at',
    'interconnect:index/vxc:Vxc bEndPartnerConfig.partner': 'no other value its schema and the whole input accept',
    'interconnect:index/vxc:Vxc bEndPartnerConfig.type': 'the whole input is not valid without it',
  },
  everywhere: {},
};
