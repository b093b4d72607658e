/**
 * Setup tests as the simulated API runs them on `run_setup_tests` or `POST .../test`: a list of
 * `{title, status, message}`. The outcome follows from the config, so tests and demos can ask for
 * a failure: a host ending in `.invalid` cannot be reached, the password `wrong` is refused, and a
 * host under `.selfsigned.` presents a certificate that fails unless `trust_certificates` is set.
 */

/** One setup test's result, as the API reports it. */
export interface SetupTest {
  title: string;
  status: 'PASSED' | 'SKIPPED' | 'WARNING' | 'FAILED' | 'JOB_FAILED';
  message: string;
}

/** Runs the tests a config calls for; `flags` holds `trust_certificates` / `trust_fingerprints`. */
export function runSetupTests(config: Record<string, unknown>, flags: Record<string, unknown>): SetupTest[] {
  const host = typeof config.host === 'string' ? config.host : undefined;
  const tests: SetupTest[] = [];
  if (host !== undefined) {
    tests.push(
      host.endsWith('.invalid') ? { title: 'Connecting to host', status: 'FAILED', message: `Could not resolve host ${host}` } : { title: 'Connecting to host', status: 'PASSED', message: '' },
    );
    if (host.includes('.selfsigned.')) {
      tests.push(
        flags.trust_certificates === true
          ? { title: 'Validating certificate', status: 'PASSED', message: '' }
          : { title: 'Validating certificate', status: 'FAILED', message: `The certificate of ${host} is not trusted: approve it or set trust_certificates` },
      );
    }
  }
  if (typeof config.tunnel_host === 'string') {
    tests.push({
      title: 'Connecting to SSH tunnel',
      status: flags.trust_fingerprints === true ? 'PASSED' : 'WARNING',
      message: flags.trust_fingerprints === true ? '' : `The host key of ${config.tunnel_host} is not yet approved`,
    });
  }
  tests.push(
    config.password === 'wrong'
      ? { title: 'Validating credentials', status: 'FAILED', message: `Authentication failed for user ${String(config.user ?? '')}` }
      : { title: 'Validating credentials', status: 'PASSED', message: '' },
  );
  return tests;
}

/** The setup state the tests leave: broken when any failed. */
export function setupStatus(tests: SetupTest[]): 'connected' | 'broken' {
  return tests.some((t) => t.status === 'FAILED' || t.status === 'JOB_FAILED') ? 'broken' : 'connected';
}
