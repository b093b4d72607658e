/** The setup-test results the API returns from a create, an update or a test of a service. */

/** One setup test's result on the wire. */
export interface SetupTest {
  title: string;
  /** PASSED, SKIPPED, WARNING, FAILED, JOB_FAILED... */
  status: string;
  message?: string;
}
