import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/shared/errors.ts';
import { quarantineDecider, type QuarantineCommand, type QuarantineEvent } from '../../projections/quarantine.ts';

const now = '2026-03-01T10:00:00.000Z';
const event = { eventId: 'e-7', stream: 'content-1', eventType: 'ContentCreated' };
const quarantined = (at: number, error = 'RangeError: x'): QuarantineEvent => ({
  type: 'ProjectionEventQuarantined',
  data: { projection: 'contentItems', position: 7, at, ...event, error, quarantined: now },
});
const released = (at: number): QuarantineEvent => ({ type: 'ProjectionEventReleased', data: { projection: 'contentItems', position: 7, at, released: now } });
const failure = (at: number, error = 'RangeError: x'): QuarantineCommand => ({ kind: 'RecordFailure', projection: 'contentItems', position: 7, at, ...event, error, now });
const release = (at: number): QuarantineCommand => ({ kind: 'RecordRelease', projection: 'contentItems', position: 7, at, now });

describe('quarantine decider', () => {
  const cases: [string, QuarantineEvent[], QuarantineCommand, QuarantineEvent[] | string][] = [
    ['quarantines an event it has never seen', [], failure(7), [quarantined(7)]],
    ['records a failure once when a replay meets it again', [quarantined(7)], failure(7), []],
    ['records a retry that failed again', [quarantined(7)], failure(12, 'RangeError: y'), [quarantined(12, 'RangeError: y')]],
    ['records nothing when a replay meets a failure already released later', [quarantined(7), released(12)], failure(7), []],
    ['releases an event a retry applied', [quarantined(7)], release(12), [released(12)]],
    ['releases an event a replay with the fix applies in place', [quarantined(7)], release(7), [released(7)]],
    ['does not release what a later retry found still failing', [quarantined(7), quarantined(12)], release(7), []],
    ['releases once', [quarantined(7), released(12)], release(12), []],
    ['releases nothing that was never quarantined', [], release(7), []],
    ['asks for a retry of what is quarantined', [quarantined(7)], { kind: 'RequestRetry', positions: [7], now }, [{ type: 'QuarantineRetryRequested', data: { positions: [7], requested: now } }]],
    ['asks for a retry of everything', [quarantined(7)], { kind: 'RequestRetry', positions: null, now }, [{ type: 'QuarantineRetryRequested', data: { positions: null, requested: now } }]],
    ['refuses a retry of what is not quarantined', [quarantined(7), released(12)], { kind: 'RequestRetry', positions: [7], now }, 'NotFound'],
  ];
  it.each(cases)('%s', (_, given, when, then) => {
    const decision = quarantineDecider.decide(when, given.reduce(quarantineDecider.evolve, quarantineDecider.initialState));
    expect(decision instanceof AppError ? decision.kind : decision).toEqual(then);
  });

  it('counts failures and keeps when it first failed', () => {
    const state = [quarantined(7), quarantined(12, 'RangeError: y')].reduce(quarantineDecider.evolve, quarantineDecider.initialState);
    expect(state['contentItems@7']).toMatchObject({ failures: 2, error: 'RangeError: y', status: 'quarantined', at: 12 });
  });
});
