import { describe, expect, it } from 'vitest';
import {
  deliveryLifecycle,
  retryAfterMs,
  retryDelayMs,
  verdictOf,
  type AttemptOutcome,
  type AttemptResult,
  type DeliveryActivities,
  type DeliveryInput,
} from '../../src/webhooks/delivery.ts';

const HOUR = 3_600_000;
const defaults = { initialMs: 5_000, maxMs: 6 * HOUR, windowMs: 72 * HOUR };
const requested = '2026-03-01T00:00:00.000Z';
const input: DeliveryInput = { webhookId: 1, deliveryId: 'msg_1', requested, retry: defaults };

type Step = { outcome: AttemptOutcome; retryAfterMs?: number | null } | 'throws';

/** Activities that answer from a script (the last step repeats), a clock that only sleeps move. */
function harness(steps: Step[], random = 1) {
  let now = Date.parse(requested);
  let attempts = 0;
  const sleeps: number[] = [];
  const abandoned: string[] = [];
  const activities: DeliveryActivities = {
    async attemptDelivery() {
      const step = steps[Math.min(attempts, steps.length - 1)]!;
      attempts += 1;
      if (step === 'throws') throw new Error('event store unavailable');
      const result: AttemptResult = { outcome: step.outcome, attempt: attempts, status: null, error: null, retryAfterMs: step.retryAfterMs ?? null, position: 0 };
      return result;
    },
    async abandonDelivery(_, reason) {
      abandoned.push(reason);
    },
  };
  const runtime = {
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    now: () => now,
    random: () => random,
  };
  return { activities, runtime, sleeps, abandoned, attempts: () => attempts, elapsed: () => now - Date.parse(requested) };
}

describe('the delivery lifecycle', () => {
  it.each([
    ['delivered', [{ outcome: 'delivered' }], 'delivered', []],
    ['failed for good', [{ outcome: 'failed' }], 'failed', []],
    ['stopped (webhook gone)', [{ outcome: 'stopped' }], 'stopped', []],
    ['delivered on the third attempt', [{ outcome: 'retry' }, { outcome: 'retry' }, { outcome: 'delivered' }], 'delivered', [5_000, 10_000]],
    ['waiting what Retry-After asks', [{ outcome: 'retry', retryAfterMs: 30_000 }, { outcome: 'delivered' }], 'delivered', [30_000]],
    ['capping Retry-After at the maximum', [{ outcome: 'retry', retryAfterMs: 48 * HOUR }, { outcome: 'delivered' }], 'delivered', [6 * HOUR]],
    ['retrying an attempt that could not run', ['throws', { outcome: 'delivered' }], 'delivered', [5_000]],
  ] as [string, Step[], string, number[]][])('ends %s', async (_, steps, end, sleeps) => {
    const run = harness(steps);
    expect(await deliveryLifecycle(run.activities, input, run.runtime)).toBe(end);
    expect(run.sleeps).toEqual(sleeps);
    expect(run.abandoned).toEqual([]);
  });

  it('backs off exponentially up to the maximum, then abandons when the window closes', async () => {
    const run = harness([{ outcome: 'retry' }]);
    expect(await deliveryLifecycle(run.activities, input, run.runtime)).toBe('abandoned');
    expect(run.abandoned).toEqual(['not delivered within 3 days']);
    expect(run.sleeps.slice(0, 4)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(Math.max(...run.sleeps)).toBe(6 * HOUR);
    expect(run.elapsed()).toBeLessThanOrEqual(72 * HOUR);
    expect(run.elapsed() + 6 * HOUR).toBeGreaterThan(72 * HOUR);
    expect(run.attempts()).toBe(run.sleeps.length + 1);
  });

  it('draws each wait at random below the backoff ceiling (full jitter)', async () => {
    const run = harness([{ outcome: 'retry' }, { outcome: 'retry' }, { outcome: 'delivered' }], 0.25);
    await deliveryLifecycle(run.activities, input, run.runtime);
    expect(run.sleeps).toEqual([1_250, 2_500]);
  });

  it('goes on from the attempts already recorded after a restart', async () => {
    const run = harness([{ outcome: 'retry' }, { outcome: 'delivered' }]);
    const resumed: DeliveryActivities = {
      ...run.activities,
      attemptDelivery: async (target) => ({ ...(await run.activities.attemptDelivery(target)), attempt: 5 }),
    };
    await deliveryLifecycle(resumed, input, run.runtime);
    expect(run.sleeps).toEqual([80_000]);
  });

  it('counts the window from the request, not from the start of the run', async () => {
    const late = { ...input, requested: new Date(Date.parse(requested) - 72 * HOUR + 1_000).toISOString() };
    const run = harness([{ outcome: 'retry' }]);
    expect(await deliveryLifecycle(run.activities, late, run.runtime)).toBe('abandoned');
    expect(run.attempts()).toBe(1);
  });
});

describe('what an answer means', () => {
  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [299, 'delivered'],
    [null, 'retry'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [410, 'gone'],
    [301, 'failed'],
    [400, 'failed'],
    [401, 'failed'],
    [404, 'failed'],
    [422, 'failed'],
  ])('%s is %s', (status, verdict) => {
    expect(verdictOf(status)).toBe(verdict);
  });

  const now = Date.parse('2026-03-01T10:00:00Z');
  it.each([
    [null, null],
    ['', null],
    ['0', 0],
    ['1', 1_000],
    [' 120 ', 120_000],
    ['Sun, 01 Mar 2026 10:00:30 GMT', 30_000],
    ['Sun, 01 Mar 2026 09:00:00 GMT', 0],
    ['soon', null],
    ['-5', null],
  ])('Retry-After %j waits %j ms', (header, ms) => {
    expect(retryAfterMs(header, now)).toBe(ms);
  });

  it.each([
    [1, null, 1, 5_000],
    [3, null, 1, 20_000],
    [3, null, 0.5, 10_000],
    [1, 2_000, 1, 5_000],
    [1, 60_000, 0, 60_000],
    [30, null, 1, 6 * HOUR],
  ])('attempt %i with Retry-After %j and chance %f waits %i ms', (attempt, asked, random, ms) => {
    expect(retryDelayMs(defaults, attempt, asked, random)).toBe(ms);
  });
});
