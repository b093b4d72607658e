import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { antiDdosAllowedDomain } from './anti-ddos-allowed-domain.js';
import { antiDdosInstance } from './anti-ddos-instance.js';
import { antiDdosIp } from './anti-ddos-ip.js';
import { antiDdosRule } from './anti-ddos-rule.js';
import { disk } from './disk.js';
import { diskAttachment } from './disk-attachment.js';
import { eip } from './eip.js';
import { eipAssociation } from './eip-association.js';
import { instance } from './instance.js';
import { lb } from './lb.js';
import { lbAttachment } from './lb-attachment.js';
import { lbListener } from './lb-listener.js';
import { lbRule } from './lb-rule.js';
import { lbSsl } from './lb-ssl.js';
import { lbSslAttachment } from './lb-ssl-attachment.js';
import { natGateway } from './nat-gateway.js';
import { natGatewayRule } from './nat-gateway-rule.js';
import { label } from './label.js';
import { labelAttachment } from './label-attachment.js';
import { securityGroup } from './security-group.js';
import { subnet } from './subnet.js';
import { vpc } from './vpc.js';
import { vpnConnection } from './vpn-connection.js';
import { vpnCustomerGateway } from './vpn-customer-gateway.js';
import { vpnGateway } from './vpn-gateway.js';

/** Every cloud resource type. */
export const cloudResources: ResourceType[] = [
  antiDdosInstance,
  antiDdosAllowedDomain,
  antiDdosIp,
  antiDdosRule,
  vpc,
  subnet,
  securityGroup,
  eip,
  eipAssociation,
  instance,
  disk,
  diskAttachment,
  lb,
  lbListener,
  lbAttachment,
  lbRule,
  lbSsl,
  lbSslAttachment,
  natGateway,
  natGatewayRule,
  vpnGateway,
  vpnCustomerGateway,
  vpnConnection,
  label,
  labelAttachment,
];
