// A standalone sandbox for the benchmark, in memory (nothing written to disk) and with instant
// provisioning until told otherwise. Prints its URL as the first line of output; stops on SIGTERM.

import { startSandbox } from '../dist/sandbox/server.js';

const sandbox = await startSandbox({ provisioningMs: 0 });
process.stdout.write(`${sandbox.url}\n`);
process.on('SIGTERM', () => {
  void sandbox.close().finally(() => process.exit(0));
});
