import pino from 'pino';
import type { InterconnectClient } from '../../src/providers/interconnect/client.js';
import { interconnectProvider } from '../../src/providers/interconnect/index.js';
import type { InterconnectSettings } from '../../src/providers/interconnect/settings.js';
import type { ResourceContext } from '../../src/engine/contracts/resource-type.js';
import type { LookupContext } from '../../src/engine/contracts/lookup.js';
import { contextWait } from '../../src/engine/applying/wait.js';

/** A handler context against a sandbox, collecting warnings, for tests beyond the lifecycle. */
export async function interconnectContext(sandboxUrl: string, address = 'subject', waitTimeMs = 30_000): Promise<ResourceContext<InterconnectClient, InterconnectSettings> & { warnings: string[] }> {
  const log = pino({ level: 'silent' });
  const settings = interconnectProvider.settings.parse({});
  const client = await interconnectProvider.connect(settings, { sandboxUrl: async () => sandboxUrl, log, env: {} });
  const warnings: string[] = [];
  return {
    client,
    settings,
    log,
    address,
    project: 'tests',
    stack: 'tests',
    operationToken: `token-${address}-${Math.random().toString(36).slice(2)}`,
    waitTimeMs,
    progress: () => {},
    warn: (m) => warnings.push(m),
    recordId: () => {},
    shared: (_key, make) => make(),
    wait: contextWait(),
    warnings,
  };
}

/** A lookup context against a sandbox, collecting warnings. */
export async function lookupContext(sandboxUrl: string): Promise<LookupContext<InterconnectClient, InterconnectSettings> & { warnings: string[] }> {
  const c = await interconnectContext(sandboxUrl);
  return { client: c.client, settings: c.settings, log: c.log, warn: c.warn, workDir: process.cwd(), warnings: c.warnings };
}
