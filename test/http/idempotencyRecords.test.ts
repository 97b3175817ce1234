import { describe, expect, it } from 'vitest';
import { idempotencyDecider, type IdempotencyCommand, type IdempotencyEvent } from '../../src/http/idempotencyRecords.ts';
import { AppError } from '../../src/shared/errors.ts';

/** Given these events, when this command: the events decided, or the kind of the error. */
function decide(given: IdempotencyEvent[], when: IdempotencyCommand): IdempotencyEvent[] | string {
  const decision = idempotencyDecider.decide(when, given.reduce(idempotencyDecider.evolve, idempotencyDecider.initialState));
  return decision instanceof AppError ? decision.kind : decision;
}

const t0 = '2026-03-01T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(t0) + ms).toISOString();
const started: IdempotencyEvent = { type: 'IdempotentRequestStarted', data: { fingerprint: 'a', started: t0 } };
const response = { status: 201, body: { id: 'x' } };
const recorded: IdempotencyEvent = { type: 'IdempotentResponseRecorded', data: { started: t0, response, recorded: at(50) } };
const released: IdempotencyEvent = { type: 'IdempotentRequestReleased', data: { started: t0, released: at(50) } };
const claim = (fingerprint: string, now: string): IdempotencyCommand => ({ kind: 'Claim', fingerprint, now });
const claimedAt = (now: string): IdempotencyEvent[] => [{ type: 'IdempotentRequestStarted', data: { fingerprint: 'a', started: now } }];
const HOUR = 3_600_000;

describe('idempotency key records', () => {
  const cases: [string, IdempotencyEvent[], IdempotencyCommand, IdempotencyEvent[] | string][] = [
    ['claims a new key', [], claim('a', t0), claimedAt(t0)],
    ['answers again for the same request (no events)', [started, recorded], claim('a', at(HOUR)), []],
    ['refuses another request under an answered key', [started, recorded], claim('b', at(HOUR)), 'Invalid'],
    ['refuses another request under a running key', [started], claim('b', at(1_000)), 'Invalid'],
    ['answers 409 while the same request runs', [started], claim('a', at(1_000)), 'Conflict'],
    ['lets a key go whose request died before answering (after a minute)', [started], claim('a', at(60_000)), claimedAt(at(60_000))],
    ['frees a key whose request failed', [started, released], claim('b', at(1_000)), [{ type: 'IdempotentRequestStarted', data: { fingerprint: 'b', started: at(1_000) } }]],
    ['forgets an answer after 24 hours', [started, recorded], claim('b', at(24 * HOUR)), [{ type: 'IdempotentRequestStarted', data: { fingerprint: 'b', started: at(24 * HOUR) } }]],
    ['records the answer of its own claim', [started], { kind: 'Record', started: t0, response, now: at(50) }, [recorded]],
    ['records nothing for a claim taken over meanwhile', [started, ...claimedAt(at(60_000))], { kind: 'Record', started: t0, response, now: at(61_000) }, []],
    ['releases nothing already answered', [started, recorded], { kind: 'Release', started: t0, now: at(60) }, []],
  ];
  it.each(cases)('%s', (_, given, when, then) => {
    expect(decide(given, when)).toEqual(then);
  });
});
