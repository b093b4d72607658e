/**
 * What every write of the simulated API shares: reading the JSON body, the documented answers
 * (201 created, a delete's message-only 200, 400 InvalidInput), new ids in the vendor's
 * `adjective_noun` style, and timestamps in its RFC 3339 form.
 */
import type { SandboxRequest, SandboxResponse } from '../types.js';
import { fail } from './http.js';
import type { PipelineData } from './model.js';

/** The request's JSON object body, or the 400 the API gives for a missing or malformed one. */
export function bodyOf(req: SandboxRequest): { value: Record<string, unknown> } | SandboxResponse {
  const body = req.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    return fail(400, 'InvalidInput', req.rawBody.trim() === '' ? 'Request body is required.' : 'Request body must be a JSON object.');
  }
  return { value: body as Record<string, unknown> };
}

/** A 400 InvalidInput with this message. */
export function problem(message: string): SandboxResponse {
  return fail(400, 'InvalidInput', message);
}

/** The 201 answer of a create. */
export function created(data: unknown, message: string): SandboxResponse {
  return { status: 201, body: { code: 'Success', message, data } };
}

/** A delete's answer: code and message, no data. */
export function deleted(message: string): SandboxResponse {
  return { status: 200, body: { code: 'Success', message } };
}

/** An action's answer (a sync started, a user added to a group): code and message, no data. */
export function done(message: string): SandboxResponse {
  return { status: 200, body: { code: 'Success', message } };
}

/** Epoch milliseconds as the API writes times (microseconds, Z). */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

const ADJECTIVES = [
  'agile',
  'bold',
  'brisk',
  'calm',
  'clever',
  'dapper',
  'eager',
  'fancy',
  'gentle',
  'glad',
  'happy',
  'jolly',
  'keen',
  'lively',
  'merry',
  'nimble',
  'proud',
  'quick',
  'sunny',
  'witty',
];
const NOUNS = [
  'badger',
  'bison',
  'crane',
  'dingo',
  'ferret',
  'gecko',
  'heron',
  'ibex',
  'jackal',
  'koala',
  'lemur',
  'macaw',
  'narwhal',
  'ocelot',
  'panda',
  'quokka',
  'raven',
  'sloth',
  'tapir',
  'wombat',
];

/** A new id no object of the account holds yet. */
export function newId(data: PipelineData): string {
  const taken = new Set([...data.groups, ...data.connections, ...data.users, ...data.teams, ...data.webhooks].map((o) => o.id));
  for (;;) {
    const pick = (words: string[]) => words[Math.floor(Math.random() * words.length)];
    const id = `${pick(ADJECTIVES)}_${pick(NOUNS)}${taken.size >= 200 ? `_${Math.floor(Math.random() * 1e6)}` : ''}`;
    if (!taken.has(id)) return id;
  }
}
