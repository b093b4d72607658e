/** What is said of a rate window: before a refresh that may not fit it, and while calls wait for it. */
import { describe, expect, it } from 'vitest';
import { ProgressView } from '../../../src/cli/progress.js';
import { noticeText, roomText } from '../../../src/cli/render-apply.js';
import { paint } from '../../../src/cli/render-plan.js';
import type { EngineEvent } from '../../../src/engine/types.js';

const wait = (waitMs: number, at: string, provider = 'interconnect'): EngineEvent => ({ type: 'rate-wait', provider, waitMs, limit: 500, windowMs: 300_000, at });

describe('a window that is full', () => {
  it.each([
    ['minutes and seconds past a minute', 130_000, 'waiting 2m 10s for room'],
    ['whole seconds past ten', 12_400, 'waiting 12 s for room'],
    ['tenths under ten seconds', 1_840, 'waiting 1.8 s for room'],
  ])('names the API, its window and the wait: %s', (_, waitMs, end) => {
    expect(noticeText(wait(waitMs, '2026-11-28T10:00:00.000Z') as never, true)).toBe(`the interconnect API's window of 500 calls per 5 minutes is full: ${end}`);
  });

  it('a window of one unit says the unit alone, and large limits are grouped', () => {
    const hourly: EngineEvent = { type: 'rate-wait', provider: 'pipeline', waitMs: 60_000, limit: 20_000, windowMs: 3_600_000, at: '2026-11-28T10:00:00.000Z' };
    expect(noticeText(hourly as never, true)).toBe("the pipeline API's window of 20,000 calls per hour is full: waiting 1m 00s for room");
  });

  it('waits in a row are one line and a count, as retries are; another event ends the run of them', () => {
    let out = '';
    const view = new ProgressView({ write: (t) => (out += t), paint: paint(false), live: false, total: 1, timer: false, now: () => Date.parse('2026-11-28T10:00:05.000Z') });
    view.handle(wait(130_000, '2026-11-28T10:00:00.000Z'));
    view.handle(wait(129_000, '2026-11-28T10:00:01.000Z'));
    view.handle(wait(128_000, '2026-11-28T10:00:02.000Z'));
    view.handle({ type: 'step-start', address: 'port', action: 'create', at: '2026-11-28T10:00:03.000Z' });
    view.handle(wait(10_000, '2026-11-28T10:00:04.000Z', 'pipeline'));
    view.finish();
    expect(out.split('\n')).toEqual([
      "2026-11-28T10:00:00.000Z the interconnect API's window of 500 calls per 5 minutes is full: waiting 2m 10s for room",
      "2026-11-28T10:00:05.000Z the interconnect API's window of 500 calls per 5 minutes is full: 2 more times",
      '2026-11-28T10:00:03.000Z port: Creating...',
      "2026-11-28T10:00:04.000Z the pipeline API's window of 500 calls per 5 minutes is full: waiting 10 s for room",
      '',
    ]);
  });
});

describe('a refresh that may not fit the window', () => {
  it('says what is left of the window, what the refresh may need and how long it may wait', () => {
    expect(roomText({ provider: 'interconnect', limit: 500, windowMs: 300_000, left: 20, need: 300, waitMs: 250_000 })).toBe(
      "interconnect: 20 of 500 calls are left in the API's 5-minute window and refreshing 300 objects may need up to 300: the refresh may wait up to 4m 10s for room.",
    );
  });

  it('one call left, an hour window, a provider resource', () => {
    expect(roomText({ provider: 'pipeline (trial)', limit: 500, windowMs: 3_600_000, left: 1, need: 2, waitMs: 1500 })).toBe(
      "pipeline (trial): 1 of 500 calls is left in the API's hour window and refreshing 2 objects may need up to 2: the refresh may wait up to 1.5 s for room.",
    );
  });
});
