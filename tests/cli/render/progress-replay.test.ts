import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProgressView, statusChanges } from '../../../src/cli/progress.js';
import { paint } from '../../../src/cli/render-plan.js';
import type { EngineEvent } from '../../../src/engine/types.js';
import { expectGolden } from '../../support/golden.js';

/**
 * An apply's event stream as the engine emits it (a status for every poll of a product being
 * provisioned, calls retried under a rate limit and against an unreachable API), replayed
 * through the progress view on its own clock, as a CI log shows it.
 */
const events = readFileSync(resolve(import.meta.dirname, '../../golden/events/ci-apply.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as EngineEvent);

function replay(stream: EngineEvent[]): string {
  const time = (e: EngineEvent) => Date.parse((e as { at: string }).at);
  let now = time(stream[0]);
  let out = '';
  const view = new ProgressView({ write: (t) => (out += t), paint: paint(false), live: false, total: 3, now: () => now, timer: false });
  // What the view does each second, between the events that come meanwhile.
  let second = now + 1000;
  for (const event of stream) {
    for (; second <= time(event); second += 1000) {
      now = second;
      view.tick();
    }
    now = time(event);
    view.handle(event);
  }
  view.finish();
  return out;
}

describe('progress without a terminal', () => {
  it('one line per change of status, "still creating" every 10 s of a step, repeated retries counted once', () => {
    const log = replay(events);
    expectGolden('render/ci-apply.progress.txt', log);
    expect(log.match(/ port: DEPLOYABLE$/gm)).toHaveLength(1);
    expect(log.match(/ port: still creating\.\.\./g)).toHaveLength(7);
    expect(log).toContain('2026-03-02T09:01:13.000Z port: still creating... [CONFIGURED] (1m10s elapsed)\n');
    expect(log).toContain('interconnect did not answer (connect ECONNREFUSED 203.0.113.7:443), retrying in 0.3 s\n');
    expect(log).toContain('interconnect did not answer (connect ECONNREFUSED 203.0.113.7:443): 4 more times\n');
    expect(log).toContain('2026-03-02T09:00:00.040Z rate limited by interconnect, retrying in 12 s\n');
  });

  it('--json carries a step status only when it changes', () => {
    const changed = statusChanges();
    const kept = events.filter(changed);
    expectGolden('render/ci-apply.events.jsonl', kept.map((e) => JSON.stringify(e)).join('\n'));
    expect(kept.filter((e) => e.type === 'step-progress').map((e) => (e as { status: string }).status)).toEqual(['DEPLOYABLE', 'CONFIGURED', 'LIVE', 'DEPLOYABLE']);
  });
});
