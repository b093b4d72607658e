/**
 * The stacks the cost tests plan against the sandbox: ports the pricebook prices, and a network
 * of a VPC, a subnet and a classic load balancer (no price action), with an EIP when asked.
 */

/** A manifest named `name` configured for both priced providers, holding `resources`. */
export const pricedManifest = (name: string, resources: string) => `name: ${name}
config:
  interconnect:cancelAtEndOfTerm: false
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
${resources}`;

/** A port at location 2, at `address` named `productName`. */
export const pricedPort = (address: string, productName: string, speed: number, term: number) => `  ${address}:
    type: interconnect:index/port:Port
    properties: { productName: ${productName}, portSpeed: ${speed}, locationId: 2, contractTermMonths: ${term}, marketplaceVisibility: false }
`;

/** A VPC `network` in `10.<octet>.0.0/16`, its subnet `app`, a load balancer `balancer`, and an EIP `ip` when `eip`. */
export const pricedNetwork = (octet: number, eip = false) => `  network:
    type: cloud:index/vpc:Vpc
    properties: { cidrBlocks: [10.${octet}.0.0/16] }
  app:
    type: cloud:index/subnet:Subnet
    properties: { vpcId: "\${network.vpcId}", cidrBlock: 10.${octet}.1.0/24 }
  balancer:
    type: cloud:index/lb:Lb
    properties: { vpcId: "\${network.vpcId}", subnetId: "\${app.subnetId}" }
${
  eip
    ? `  ip:
    type: cloud:index/eip:Eip
    properties: { internetType: bgp, bandwidth: 10 }
`
    : ''
}`;
