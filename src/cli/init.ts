import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { UserError } from '../kernel/errors.js';
import { closestName } from '../kernel/did-you-mean.js';
import type { GlobalOptions } from './session.js';

/*
 * Starter manifests, one per provider: each works as written against the built-in sandbox (no
 * account needed), shows a lookup feeding a resource, and says in comments what to change.
 */

const STARTERS: Record<string, (name: string) => string> = {
  interconnect: (name) => `name: ${name}
description: A 1G port, found by location, and an MCR beside it. Edit, then run plumb plan.
config:
  # Without interconnect:accessKey / secretKey (or INTERCONNECT_* variables) plumb uses its sandbox.
  interconnect:waitTime: 10
variables:
  site:
    fn::invoke:
      function: interconnect:index/getLocation:getLocation
      # plumb lookup interconnect:getLocations --arg metro=Sydney lists the locations of a metro.
      arguments: { id: 2 }
resources:
  port:
    type: interconnect:index/port:Port
    properties:
      productName: ${name}-port
      portSpeed: 1000
      locationId: \${site.id}
      contractTermMonths: 1
      marketplaceVisibility: false
  router:
    type: interconnect:index/mcr:Mcr
    properties:
      productName: ${name}-mcr
      portSpeed: 1000
      locationId: \${site.id}
      contractTermMonths: 1
outputs:
  portUid: \${port.productUid}
  routerUid: \${router.productUid}
`,
  cloud: (name) => `name: ${name}
description: An anti-DDoS instance that allows one site. Edit, then run plumb plan.
config:
  # Without cloud:publicKey / cloud:privateKey (or UCLOUD_* variables) plumb uses its sandbox.
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
  shield:
    type: cloud:index/antiDdosInstance:AntiDdosInstance
    properties:
      name: ${name}-shield
      area: EastChina
      dataCenter: Yangzhou
      bandwidth: 100
      baseDefenceValue: 30
      maxDefenceValue: 60
      chargeType: month
      duration: 1
  site:
    type: cloud:index/antiDdosAllowedDomain:AntiDdosAllowedDomain
    properties:
      instanceId: \${shield.antiDdosInstanceId}
      # The registrable domain: it covers every host under it.
      domain: example.com
outputs:
  instanceId: \${shield.antiDdosInstanceId}
`,
  pipeline: (name) => `name: ${name}
description: A read-only view of one group and its paused connections. Edit, then run plumb plan.
# Without pipeline:apiKey (or FIVETRAN_APIKEY) plumb uses its sandbox, whose account has the
# group decent_dropsy. plumb lookup pipeline:getGroups lists the groups of an account.
variables:
  group:
    fn::invoke:
      function: pipeline:index/getGroup:getGroup
      arguments: { id: decent_dropsy }
  paused:
    fn::invoke:
      function: pipeline:index/getConnections:getConnections
      arguments: { groupId: "\${group.id}", paused: true }
      return: connections
outputs:
  group: \${group.name}
  pausedConnections: \${paused}
`,
};

/** `plumb init PROVIDER [--name NAME] [--force]`: writes a starter manifest (plumb.yaml, or -f FILE). */
export async function initCommand(provider: string | undefined, opts: GlobalOptions & { name?: string; force?: boolean }): Promise<number> {
  const providers = Object.keys(STARTERS);
  if (!provider) throw new UserError('plumb init needs a provider', `plumb init ${providers.join(' | ')}`);
  const starter = STARTERS[provider];
  if (!starter) {
    const hint = closestName(provider, providers);
    throw new UserError(`no starter for provider "${provider}"`, `${hint ? `did you mean ${hint}? ` : ''}providers: ${providers.join(', ')}`);
  }
  const file = opts.file ?? 'plumb.yaml';
  // Beside a Pulumi project, a plumb.yaml would be a second program of the folder (see manifest/project.ts).
  if (opts.file === undefined && existsSync('Pulumi.yaml'))
    throw new UserError(
      'this folder holds a Pulumi project (Pulumi.yaml): a plumb.yaml beside it would be a second program',
      'plumb runs the project as it is; write a starter elsewhere with -f FILE, or in another folder',
    );
  if (existsSync(file) && !opts.force) throw new UserError(`${file} already exists`, 'pass --force to overwrite it, or -f FILE to write another file');
  const name = opts.name ?? projectName(basename(dirname(resolve(file))));
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name)) throw new UserError(`--name ${name}: a project name is up to 100 letters, digits, ".", "_" and "-", starting with a letter or digit`);
  writeFileSync(file, starter(name), { flag: opts.force ? 'w' : 'wx' });
  process.stdout.write(`Wrote ${file}: a starter ${provider} manifest for project "${name}".\nNext: plumb validate ${file}, then plumb plan ${file}.\n`);
  return 0;
}

/** A folder name as a project name: other characters become "-", and an empty one is "plumb". */
function projectName(folder: string): string {
  const name = folder
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 100);
  return name || 'plumb';
}
