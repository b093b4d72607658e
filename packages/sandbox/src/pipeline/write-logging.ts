/**
 * External logging (REST v1): a group's log service, whose id is the group's, so a group has at
 * most one. POST answers 201, GET/PATCH 200 with the config's secret keys masked, DELETE a message;
 * the list pages through every log service of the account.
 * Setup tests run on a PATCH's `run_setup_tests` or `POST .../test` (never on the create) and
 * report what a test event met.
 */
import type { SandboxRequest, SandboxResponse } from '../types.js';
import { fail, notFound, ok, page } from './http.js';
import type { ExternalLog, PipelineData } from './model.js';
import { route, type Route } from './route.js';
import { MASK } from './views.js';
import { bodyOf, created, deleted, problem } from './write-common.js';

/** The log services, each with the config keys it needs and those that are secret. */
const LOG_SERVICES: Record<string, { needs: string[]; secrets: string[] }> = {
  azure_monitor_log: { needs: ['workspace_id', 'primary_key'], secrets: ['primary_key'] },
  cloudwatch: { needs: ['log_group_name', 'role_arn', 'region'], secrets: [] },
  datadog_log: { needs: ['api_key'], secrets: ['api_key'] },
  grafana_loki: { needs: ['host'], secrets: ['token'] },
  new_relic_log: { needs: ['api_key'], secrets: ['api_key'] },
  splunkLog: { needs: ['host', 'token'], secrets: ['token'] },
  stackdriver: { needs: ['project_id'], secrets: [] },
};

/** A log service as the API shows it: secrets masked, setup tests when run. */
function shown(log: ExternalLog, tests?: unknown[]): unknown {
  const secrets = LOG_SERVICES[log.service]?.secrets ?? [];
  const config = Object.fromEntries(Object.entries(log.config).map(([k, v]) => [k, secrets.includes(k) ? MASK : v]));
  return { id: log.id, group_id: log.group_id, service: log.service, enabled: log.enabled, config, ...(tests ? { setup_tests: tests } : {}) };
}

/** A test event sent to the service: a host or hostname under `.invalid` cannot be reached. */
function setupTests(log: ExternalLog): Array<{ title: string; status: string; message: string }> {
  const host = [log.config.host, log.config.hostname].find((h): h is string => typeof h === 'string');
  if (host?.endsWith('.invalid')) return [{ title: 'Sending a test log event', status: 'FAILED', message: `Could not resolve host ${host}` }];
  return [{ title: 'Sending a test log event', status: 'PASSED', message: '' }];
}

function configProblems(service: string, config: unknown, creating: boolean): string[] {
  if (config === undefined && !creating) return [];
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return ["Field 'config' is required: an object."];
  const spec = LOG_SERVICES[service];
  const missing = creating && spec ? spec.needs.filter((k) => (config as Record<string, unknown>)[k] === undefined || (config as Record<string, unknown>)[k] === '') : [];
  return missing.length ? [`Field 'config' of ${service} needs ${missing.map((k) => `'${k}'`).join(', ')}.`] : [];
}

function createLog(req: SandboxRequest, data: PipelineData): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems: string[] = [];
  if (typeof v.group_id !== 'string') problems.push("Field 'group_id' is required.");
  if (!(String(v.service) in LOG_SERVICES)) problems.push(`Field 'service' is required: one of ${Object.keys(LOG_SERVICES).join(', ')}.`);
  if (v.enabled !== undefined && typeof v.enabled !== 'boolean') problems.push("Field 'enabled' must be true or false.");
  problems.push(...configProblems(String(v.service), v.config, true));
  if (problems.length) return problem(problems.join(' '));
  if (!data.groups.some((g) => g.id === v.group_id)) return notFound('NotFound_Group', 'Group', String(v.group_id));
  if (data.externalLogs.some((l) => l.id === v.group_id)) return fail(409, 'Conflict', `Group '${String(v.group_id)}' already has an external log service.`);
  const config = Object.fromEntries(Object.entries(v.config as Record<string, unknown>).filter(([, x]) => x !== null && x !== ''));
  const log: ExternalLog = { id: String(v.group_id), group_id: String(v.group_id), service: String(v.service), enabled: v.enabled !== false, config };
  data.externalLogs.push(log);
  // The create takes group_id, service, enabled and config only (the OpenAPI document's
  // AddLogRequest; go-fivetran external_logging/common_types.go): it runs no setup tests.
  return created(shown(log), 'Log service has been added');
}

function updateLog(req: SandboxRequest, log: ExternalLog): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  if (v.service !== undefined && v.service !== log.service) return problem("Field 'service' cannot be changed.");
  const problems = configProblems(log.service, v.config, false);
  if (v.enabled !== undefined && typeof v.enabled !== 'boolean') problems.push("Field 'enabled' must be true or false.");
  if (problems.length) return problem(problems.join(' '));
  if (typeof v.enabled === 'boolean') log.enabled = v.enabled;
  for (const [key, value] of Object.entries((v.config as Record<string, unknown>) ?? {})) {
    if (value === null || value === '') delete log.config[key];
    else log.config[key] = value;
  }
  return ok(shown(log, v.run_setup_tests === true ? setupTests(log) : undefined), 'Log service has been updated');
}

function withLog(id: string, data: PipelineData, act: (log: ExternalLog) => SandboxResponse): SandboxResponse {
  const log = data.externalLogs.find((l) => l.id === id);
  return log ? act(log) : notFound('NotFound_LogService', 'LogService', id);
}

/** The external logging routes (group level). */
export const loggingRoutes: Route[] = [
  // Items carry id, service and enabled only (the OpenAPI document's LogResponse; go-fivetran
  // external_logging/external_logging_list.go decodes ExternalLoggingResponseBase).
  route('GET', '/v1/external-logging', (req, _, d) =>
    page(
      req.query,
      d.externalLogs.map((l) => ({ id: l.id, service: l.service, enabled: l.enabled })),
    ),
  ),
  route('POST', '/v1/external-logging', (req, _, d) => createLog(req, d)),
  route('GET', '/v1/external-logging/:id', (_, p, d) => withLog(p.id, d, (l) => ok(shown(l)))),
  route('PATCH', '/v1/external-logging/:id', (req, p, d) => withLog(p.id, d, (l) => updateLog(req, l))),
  route('DELETE', '/v1/external-logging/:id', (_, p, d) =>
    withLog(p.id, d, (l) => {
      d.externalLogs = d.externalLogs.filter((x) => x !== l);
      return deleted(`Log service with id '${l.id}' has been removed`);
    }),
  ),
  route('POST', '/v1/external-logging/:id/test', (_, p, d) => withLog(p.id, d, (l) => ok({ setup_tests: setupTests(l) }, 'Setup tests have been completed'))),
];
