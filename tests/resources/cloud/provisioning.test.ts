/**
 * What each cloud type declares of how the API provisions its objects, which the engine acts on
 * after a timeout or a crash: how soon a new object is listed (appearsWithinMs), and which
 * statuses mean ready or failed. Driven from the registry, so the next type added must say too.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readinessOf, type Readiness } from '../../../src/engine/applying/awaiting.js';
import type { ResourceType } from '../../../src/engine/contracts/resource-type.js';
import { loadResourceTypes } from '../../../src/cli/catalog.js';
import { antiDdosAllowedDomain } from '../../../src/resources/cloud/anti-ddos-allowed-domain.js';
import { antiDdosIp } from '../../../src/resources/cloud/anti-ddos-ip.js';
import { antiDdosRule } from '../../../src/resources/cloud/anti-ddos-rule.js';
import { disk } from '../../../src/resources/cloud/disk.js';
import { eip } from '../../../src/resources/cloud/eip.js';
import { instance } from '../../../src/resources/cloud/instance.js';
import { APPEARS_WITHIN_MS } from '../../../src/resources/cloud/kit.js';

const types = [...(await loadResourceTypes(['cloud'])).values()];

/** The source file of a type: `cloud:index/lbSslAttachment:LbSslAttachment` is lb-ssl-attachment.ts. */
function sourceOf(type: ResourceType): string {
  const name = type.token
    .split(':')
    .pop()!
    .replace(/(?<!^)([A-Z])/g, '-$1')
    .toLowerCase();
  return readFileSync(resolve(import.meta.dirname, '../../../src/resources/cloud', `${name}.ts`), 'utf8');
}

describe('every cloud type says how soon the API lists a new object of it', () => {
  for (const type of types) {
    it(type.token, () => {
      // Left out, a type whose objects the API lists only once provisioned would have an order it
      // accepted taken for one that made nothing, and bought again.
      expect(type.provisioning?.appearsWithinMs, `${type.token} declares no appearsWithinMs: 0 if the API lists a new object at once, else APPEARS_WITHIN_MS`).toBeTypeOf('number');
      expect([0, APPEARS_WITHIN_MS], `${type.token}: the provider has one documented bound, APPEARS_WITHIN_MS`).toContain(type.provisioning?.appearsWithinMs);
      // The engine looks for what an order without an id made with findOwned until it would be listed.
      if (type.provisioning?.appearsWithinMs) expect(type.findOwned, `${type.token} may go unlisted, so an interrupted order of it must be found by findOwned`).toBeTypeOf('function');
      // The declaration says why, in the line above it.
      expect(sourceOf(type), `${type.token}: say why above appearsWithinMs`).toMatch(/\/\/ [^\n]+\n\s*appearsWithinMs: /);
    });
  }
});

describe('the API’s word for each provisioning state', () => {
  const cases: Array<[string, ResourceType, Record<string, unknown>, Readiness['state']]> = [
    ['an instance being installed is on its way', instance, { state: 'Initializing' }, 'provisioning'],
    ['an instance whose state the API could not tell is on its way', instance, { state: '' }, 'provisioning'],
    ['a running instance is ready', instance, { state: 'Running' }, 'ready'],
    ['a stopped instance is ready', instance, { state: 'Stopped' }, 'ready'],
    ['an install that failed (the API spells it with a space) is a failure', instance, { state: 'Install Fail' }, 'failed'],
    ['a resize that failed is a failure', instance, { state: 'ResizeFail' }, 'failed'],
    ['a disk being made (the API spells it Initializating) is on its way', disk, { status: 'Initializating' }, 'provisioning'],
    ['an available disk is ready', disk, { status: 'Available' }, 'ready'],
    ['a disk in use is ready', disk, { status: 'InUse' }, 'ready'],
    ['a failed disk is a failure', disk, { status: 'Failed' }, 'failed'],
    ['an EIP being allocated is on its way', eip, { status: '' }, 'provisioning'],
    ['a free EIP is ready', eip, { status: 'free' }, 'ready'],
    ['a frozen EIP is allocated all the same', eip, { status: 'freeze' }, 'ready'],
    ['a service IP being set up is on its way', antiDdosIp, { status: 'Pending' }, 'provisioning'],
    ['a service IP set up is ready', antiDdosIp, { status: 'Success' }, 'ready'],
    ['a service IP in any other status failed, as upstream takes it', antiDdosIp, { status: 'Failure' }, 'failed'],
    ['a forwarding rule being applied is on its way', antiDdosRule, { status: 'Pending' }, 'provisioning'],
    ['a forwarding rule applied is ready', antiDdosRule, { status: 'Success' }, 'ready'],
    ['a forwarding rule in any other status failed', antiDdosRule, { status: 'Failure' }, 'failed'],
    ['a domain being added is on its way', antiDdosAllowedDomain, { status: 'Adding' }, 'provisioning'],
    ['an allowed domain is ready', antiDdosAllowedDomain, { status: 'Success' }, 'ready'],
    ['a domain the platform refused is a failure', antiDdosAllowedDomain, { status: 'Failure' }, 'failed'],
  ];
  for (const [name, type, outputs, state] of cases) {
    it(name, () => {
      expect(readinessOf(type, outputs).state).toBe(state);
    });
  }
});
