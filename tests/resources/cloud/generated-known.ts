/** What the generated lifecycle suite of the cloud types is known to find, each with its reason (see tests/support/generated-lifecycle.ts). */
import type { KnownProblems } from '../../support/generated-lifecycle.js';

export const known: KnownProblems = {
  failures: {
    'cloud:index/antiDdosInstance:AntiDdosInstance chargeType remove':
      'suite: the rules give no default for a billing field left out; the plan records its removal without a call, which is what the type documents',
    'cloud:index/antiDdosInstance:AntiDdosInstance duration remove':
      'suite: the rules give no default for a billing field left out; the plan records its removal without a call, which is what the type documents',
    'cloud:index/vpnConnection:VpnConnection ipsecCloseAction add':
      "suite: the value it adds is the input's default (none), which the tunnel already has, so no change is right; the rules table knows no defaults",
  },
  gaps: {
    'cloud:index/antiDdosRule:AntiDdosRule sourceType': 'domain takes domain names, not the IP addresses its spec forwards (refused at validate)',
    'cloud:index/eipAssociation:EipAssociation resourceType': 'the kind its resourceId names is the only one accepted (refused at validate)',
    'cloud:index/lbRule:LbRule domainMatchMode': 'only a domain rule takes it, and its spec makes a path rule (refused at validate)',
    'cloud:index/antiDdosInstance:AntiDdosInstance area': 'no other value its schema and the whole input accept',
    'cloud:index/antiDdosAllowedDomain:AntiDdosAllowedDomain instanceId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/antiDdosRule:AntiDdosRule instanceId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/antiDdosRule:AntiDdosRule port': 'the whole input is not valid without it',
    'cloud:index/antiDdosRule:AntiDdosRule realServers': 'no further item its schema and the whole input accept',
    'cloud:index/antiDdosRule:AntiDdosRule detection': 'no value its schema and the whole input accept (nor one its spec gives)',
    'cloud:index/vpnGateway:VpnGateway vpcId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/instance:Instance vpcId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/instance:Instance subnetId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/instance:Instance securityGroupId': 'no value its schema and the whole input accept (nor one its spec gives)',
    'cloud:index/instance:Instance password': 'the whole input is not valid without it',
    'cloud:index/instance:Instance keyPairId': 'no value its schema and the whole input accept (nor one its spec gives)',
    'cloud:index/lbSslAttachment:LbSslAttachment lbId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/lbAttachment:LbAttachment lbId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/lbAttachment:LbAttachment listenerId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/lbRule:LbRule lbId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/lbRule:LbRule listenerId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/lbRule:LbRule domain': 'no value its schema and the whole input accept (nor one its spec gives)',
    'cloud:index/lbRule:LbRule path': 'the whole input is not valid without it',
    'cloud:index/lbSsl:LbSsl caCert': 'no value its schema and the whole input accept (nor one its spec gives)',
    'cloud:index/natGateway:NatGateway securityGroupId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/vpnConnection:VpnConnection vpnGatewayId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/vpnConnection:VpnConnection customerGatewayId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/vpnConnection:VpnConnection vpcId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/vpnConnection:VpnConnection ikeVersion': 'no value its schema and the whole input accept (nor one its spec gives)',
    'cloud:index/vpnConnection:VpnConnection ipsecLocalSubnetIds': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/vpnConnection:VpnConnection ipsecSaLifetime': 'no value its schema and the whole input accept (nor one its spec gives)',
    'cloud:index/vpnConnection:VpnConnection ipsecSaLifetimeBytes': 'no value its schema and the whole input accept (nor one its spec gives)',
    'cloud:index/labelAttachment:LabelAttachment category': 'no value its schema and the whole input accept (nor one its spec gives)',
    'cloud:index/subnet:Subnet vpcId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/lb:Lb vpcId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/lbListener:LbListener lbId': 'it names an object of the world, and its spec made no second one to point at',
    'cloud:index/label:Label category': 'no value its schema and the whole input accept (nor one its spec gives)',
  },
  everywhere: {},
};
