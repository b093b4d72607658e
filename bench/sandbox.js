// A standalone sandbox for the benchmark, in memory (nothing written to disk) and with instant
// provisioning until told otherwise; `--limits real` enforces the APIs' documented rate limits.
// Prints its URL as the first line of output; stops on SIGTERM.

import { startSandbox } from '@plumb/sandbox';

const limits = process.argv.includes('--limits') ? process.argv[process.argv.indexOf('--limits') + 1] : 'off';
const sandbox = await startSandbox({ provisioningMs: 0, limits });
process.stdout.write(`${sandbox.url}\n`);
process.on('SIGTERM', () => {
  void sandbox.close().finally(() => process.exit(0));
});
