/** What the generated lifecycle suite of the cloud types is known to find, each with its reason (see tests/support/generated-lifecycle.ts). */
import type { KnownProblems } from '../../support/generated-lifecycle.js';

export const known: KnownProblems = {
  failures: {
    'cloud:index/antiDdosRule:AntiDdosRule backupServer clear':
      'finding 5 (shape, new case): clearing backupServer replaces the rule create-first while it keeps its IP and port, which the API holds unique (RetCode 230, already forwards); the type declares no `holds`',
    'cloud:index/eipAssociation:EipAssociation * replace':
      'new: an EIP association replaced as it is (--replace) never ends; so does an apply after a refused BindEIP (seen with resourceType ulb on a host)',
    'cloud:index/lbListener:LbListener domain clear': "new: clearing a listener's health-check domain plans a replacement; apply makes a second VServer, deletes none, and the value stays",
    'cloud:index/lbListener:LbListener path clear': "new: clearing a listener's health-check path plans a replacement; apply makes a second VServer, deletes none, and the value stays",
    'cloud:index/antiDdosInstance:AntiDdosInstance chargeType remove':
      'suite: the rules give no default for a billing field left out; the plan records its removal without a call, which is what the type documents',
    'cloud:index/antiDdosInstance:AntiDdosInstance duration remove':
      'suite: the rules give no default for a billing field left out; the plan records its removal without a call, which is what the type documents',
    'cloud:index/antiDdosRule:AntiDdosRule sourceType add': 'finding 8 (shape): sourceType domain with IP addresses passes plan, refused at apply',
    'cloud:index/securityGroup:SecurityGroup rules[0].cidrBlock add': 'finding 8 (shape): cidrBlock is any text in the schema; the API takes an IPv4 address or range',
    'cloud:index/eipAssociation:EipAssociation resourceType add': 'finding 8 (shape): resourceType ulb naming a host passes plan, refused at apply after four attempts',
    'cloud:index/instance:Instance availabilityZone change': 'finding 8 (shape): a zone the image is not in passes plan, refused at apply',
    'cloud:index/diskAttachment:DiskAttachment stopInstanceBeforeDetaching add':
      'finding 3 (shape): a write-only field added to an object made without it is adopted as declared: "No changes", nothing sent, the object never gets it',
    'cloud:index/lbListener:LbListener protocol change': 'finding 5 (shape, new case): a listener replaced create-first while keeping its port; the API refuses a second VServer on the port (4107)',
    'cloud:index/lbRule:LbRule domainMatchMode add': 'new: domainMatchMode is planned and recorded, but the world keeps `regular` and the type reads `regular`',
    'cloud:index/vpnConnection:VpnConnection ipsecCloseAction add':
      'finding 3 (shape): a write-only field added to an object made without it is adopted as declared: "No changes", nothing sent, the object never gets it',
    'cloud:index/labelAttachment:LabelAttachment key change': 'finding 8 (shape): a label that does not exist passes plan, refused at apply (plan could list labels)',
    'cloud:index/labelAttachment:LabelAttachment value change': 'finding 8 (shape): a label that does not exist passes plan, refused at apply (plan could list labels)',
  },
  gaps: {
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
