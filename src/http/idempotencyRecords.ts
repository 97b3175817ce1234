// The record of one Idempotency-Key (`idempotency-<hash>`): who holds it, for which request, and its first answer.
import type { Decider } from '../shared/decider.ts';
import { conflict, invalid, type AppError } from '../shared/errors.ts';

/** A key's record lasts this long; after it, the key is free again. */
export const KEY_LIFETIME_MS = 24 * 60 * 60_000;
/** A request that has not answered within this long died with its process: its key may be claimed again. */
export const CLAIM_LEASE_MS = 60_000;

export interface StoredResponse {
  status: number;
  /** The JSON body; null for an answer without one (204). */
  body: unknown;
}

export type IdempotentRequestStarted = { type: 'IdempotentRequestStarted'; data: { fingerprint: string; started: string } };
export type IdempotentResponseRecorded = { type: 'IdempotentResponseRecorded'; data: { started: string; response: StoredResponse; recorded: string } };
/** The request failed (any answer but 2xx): nothing it did needs protecting from a retry, so the key is free. */
export type IdempotentRequestReleased = { type: 'IdempotentRequestReleased'; data: { started: string; released: string } };

export type IdempotencyEvent = IdempotentRequestStarted | IdempotentResponseRecorded | IdempotentRequestReleased;

export type IdempotencyState =
  | { kind: 'free' }
  | { kind: 'running'; fingerprint: string; started: string }
  | { kind: 'answered'; fingerprint: string; started: string; response: StoredResponse };

export type IdempotencyCommand =
  | { kind: 'Claim'; fingerprint: string; now: string }
  | { kind: 'Record'; started: string; response: StoredResponse; now: string }
  | { kind: 'Release'; started: string; now: string };

export const keyReusedError = () =>
  invalid([{ location: 'Idempotency-Key', message: 'was already used with a different request (method, path or body)' }], 'Idempotency-Key reused');

const ageMs = (since: string, now: string) => Date.parse(now) - Date.parse(since);

/** Whether a record no longer holds its key: expired, or a request whose process died before answering. */
function lapsed(state: IdempotencyState, now: string): boolean {
  if (state.kind === 'free') return true;
  if (ageMs(state.started, now) >= KEY_LIFETIME_MS) return true;
  return state.kind === 'running' && ageMs(state.started, now) >= CLAIM_LEASE_MS;
}

export const idempotencyDecider: Decider<IdempotencyState, IdempotencyCommand, IdempotencyEvent> = {
  initialState: { kind: 'free' },

  evolve(state, event) {
    switch (event.type) {
      case 'IdempotentRequestStarted':
        return { kind: 'running', fingerprint: event.data.fingerprint, started: event.data.started };
      case 'IdempotentResponseRecorded':
        return state.kind === 'free' ? state : { kind: 'answered', fingerprint: state.fingerprint, started: state.started, response: event.data.response };
      case 'IdempotentRequestReleased':
        return { kind: 'free' };
    }
  },

  /** A Claim that decides no events means: answer the stored response again. */
  decide(command, state): IdempotencyEvent[] | AppError {
    switch (command.kind) {
      case 'Claim':
        if (lapsed(state, command.now)) return [{ type: 'IdempotentRequestStarted', data: { fingerprint: command.fingerprint, started: command.now } }];
        if (state.kind !== 'free' && state.fingerprint !== command.fingerprint) return keyReusedError();
        if (state.kind === 'running') return conflict('A request with this Idempotency-Key is still in progress; retry later');
        return [];
      // Record and Release act only on the claim they belong to: a lapsed claim may have been taken over.
      case 'Record':
        if (state.kind !== 'running' || state.started !== command.started) return [];
        return [{ type: 'IdempotentResponseRecorded', data: { started: command.started, response: command.response, recorded: command.now } }];
      case 'Release':
        if (state.kind !== 'running' || state.started !== command.started) return [];
        return [{ type: 'IdempotentRequestReleased', data: { started: command.started, released: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
