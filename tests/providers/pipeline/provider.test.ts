/**
 * The pipeline provider definition: settings, environment variables, masking, checks, and
 * connecting either to the configured account or to the sandbox.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/kernel/errors.js';
import { getGroups } from '../../../src/lookups/pipeline/get-groups.js';
import { pipelineProvider } from '../../../src/providers/pipeline/index.js';
import type { ProviderRuntime } from '../../../src/engine/contracts/provider.js';
import { contextFor, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';

let sandbox: PipelineSandbox;
beforeAll(async () => (sandbox = await pipelineSandbox()));
afterAll(async () => sandbox.close());

const runtime = (url: string): ProviderRuntime => ({ sandboxUrl: async () => url, log: pino({ level: 'silent' }), env: {} });
const parse = (input: unknown) => pipelineProvider.settings.parse(input);

describe('settings', () => {
  it('defaults apiUrl to the vendor v1 base and treats blank values as unset', () => {
    expect(parse({})).toEqual({ apiUrl: 'https://api.fivetran.com/v1' });
    expect(parse({ apiKey: '', apiSecret: '', apiUrl: '' })).toEqual({ apiUrl: 'https://api.fivetran.com/v1' });
  });

  it('rejects an apiUrl that is not a URL', () => {
    expect(() => parse({ apiUrl: 'not a url' })).toThrow();
  });

  it('maps the upstream environment variables and marks the secret', () => {
    expect(pipelineProvider.envVars).toEqual({ FIVETRAN_APIKEY: 'apiKey', FIVETRAN_APISECRET: 'apiSecret', FIVETRAN_API_URL: 'apiUrl' });
    expect(pipelineProvider.secretSettings).toEqual(['apiSecret']);
  });

  it('documents every setting', () => {
    const shape = (pipelineProvider.settings as unknown as { shape: Record<string, { description?: string }> }).shape;
    for (const [name, field] of Object.entries(shape)) expect(field.description, name).toBeTruthy();
  });

  it('describes settings under the upstream names with the secret masked', () => {
    const described = pipelineProvider.describeSettings!(parse({ apiKey: 'k', apiSecret: 'shh' }));
    expect(described).toEqual({ api_key: 'k', api_secret: '[secret]', api_url: 'https://api.fivetran.com/v1' });
    expect(JSON.stringify(described)).not.toContain('shh');
  });

  it('declares its key, secret and address real, and the key with the secret its credentials', () => {
    expect(pipelineProvider.real).toEqual({ settings: ['apiKey', 'apiSecret', 'apiUrl'], credentials: [['apiKey', 'apiSecret']] });
  });
});

describe('connect', () => {
  it('uses the sandbox when no apiKey is configured, and the lookups work through it', async () => {
    const client = await pipelineProvider.connect(parse({}), runtime(sandbox.url));
    expect(client.baseUrl).toBe(`${sandbox.url}/pipeline/v1`);
    const result = await getGroups.invoke(contextFor(client), {});
    expect(result.groups.length).toBeGreaterThan(0);
  });

  it('without a sandbox from the runtime, uses apiUrl with the configured credentials', async () => {
    const client = await pipelineProvider.connect(parse({ apiKey: 'k', apiSecret: 's', apiUrl: 'https://pipeline.example.com/v1/' }), { log: pino({ level: 'silent' }), env: {} });
    expect(client.baseUrl).toBe('https://pipeline.example.com/v1');
  });

  it('without a sandbox from the runtime, refuses half-configured credentials with a UserError', async () => {
    await expect(pipelineProvider.connect(parse({ apiKey: 'k' }), { log: pino({ level: 'silent' }), env: {} })).rejects.toBeInstanceOf(UserError);
  });
});
