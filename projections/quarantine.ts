// The quarantine of events a projection could not apply: facts on a stream of their own, so they outlive restarts
// and every process (API, CLI) sees them; a pure decider keeps replays from recording anything twice.
import { AppError, notFound } from '../src/shared/errors.ts';
import type { Decider } from '../src/shared/decider.ts';

export const QUARANTINE_STREAM = 'quarantine-projections';

/** Which event, for which projection, and the log position at which this outcome was reached (`at`). */
interface Outcome {
  projection: string;
  position: number;
  /** The event's own position, or the position of the retry request that tried it again. */
  at: number;
}

export type ProjectionEventQuarantined = {
  type: 'ProjectionEventQuarantined';
  data: Outcome & { eventId: string; stream: string; eventType: string; error: string; quarantined: string };
};
/** `positions` null: every event still quarantined. */
export type QuarantineRetryRequested = { type: 'QuarantineRetryRequested'; data: { positions: number[] | null; requested: string } };
export type ProjectionEventReleased = { type: 'ProjectionEventReleased'; data: Outcome & { released: string } };

export type QuarantineEvent = ProjectionEventQuarantined | QuarantineRetryRequested | ProjectionEventReleased;

export interface QuarantineEntry {
  projection: string;
  position: number;
  eventId: string;
  stream: string;
  eventType: string;
  /** The last failure. */
  error: string;
  /** Failures recorded: the first, then one per retry that failed again. */
  failures: number;
  status: 'quarantined' | 'released';
  at: number;
  quarantined: string;
  lastFailed: string;
  released: string | null;
}

export type QuarantineState = Record<string, QuarantineEntry>;

export type QuarantineCommand =
  | { kind: 'RecordFailure'; projection: string; position: number; at: number; eventId: string; stream: string; eventType: string; error: string; now: string }
  | { kind: 'RecordRelease'; projection: string; position: number; at: number; now: string }
  | { kind: 'RequestRetry'; positions: number[] | null; now: string };

export const entryKey = (projection: string, position: number) => `${projection}@${position}`;

export const openEntries = (state: QuarantineState): QuarantineEntry[] =>
  Object.values(state)
    .filter((entry) => entry.status === 'quarantined')
    .sort((a, b) => a.position - b.position || a.projection.localeCompare(b.projection));

function evolve(state: QuarantineState, event: QuarantineEvent): QuarantineState {
  switch (event.type) {
    case 'ProjectionEventQuarantined': {
      const { projection, position, at, eventId, stream, eventType, error, quarantined } = event.data;
      const key = entryKey(projection, position);
      const before = state[key];
      const entry: QuarantineEntry = {
        projection,
        position,
        eventId,
        stream,
        eventType,
        error,
        failures: (before?.failures ?? 0) + 1,
        status: 'quarantined',
        at,
        quarantined: before?.quarantined ?? quarantined,
        lastFailed: quarantined,
        released: null,
      };
      return { ...state, [key]: entry };
    }
    case 'ProjectionEventReleased': {
      const key = entryKey(event.data.projection, event.data.position);
      const before = state[key];
      return before ? { ...state, [key]: { ...before, status: 'released', at: event.data.at, released: event.data.released } } : state;
    }
    case 'QuarantineRetryRequested':
      return state;
  }
}

/**
 * A replay meets the same failures and retries again, at positions the quarantine has already passed:
 * an outcome is recorded only when it is newer (`at`) than the last one recorded for that event.
 */
function decide(command: QuarantineCommand, state: QuarantineState): QuarantineEvent[] | AppError {
  switch (command.kind) {
    case 'RecordFailure': {
      const { projection, position, at, eventId, stream, eventType, error, now } = command;
      const entry = state[entryKey(projection, position)];
      if (entry && entry.at >= at) return [];
      return [{ type: 'ProjectionEventQuarantined', data: { projection, position, at, eventId, stream, eventType, error, quarantined: now } }];
    }
    case 'RecordRelease': {
      const { projection, position, at, now } = command;
      const entry = state[entryKey(projection, position)];
      if (!entry || entry.status !== 'quarantined' || at < entry.at) return [];
      return [{ type: 'ProjectionEventReleased', data: { projection, position, at, released: now } }];
    }
    case 'RequestRetry': {
      const open = openEntries(state).filter((entry) => command.positions === null || command.positions.includes(entry.position));
      if (open.length === 0) return notFound();
      return [{ type: 'QuarantineRetryRequested', data: { positions: command.positions, requested: command.now } }];
    }
  }
}

export const quarantineDecider: Decider<QuarantineState, QuarantineCommand, QuarantineEvent> = { initialState: {}, evolve, decide };

/** Folds one recorded event of any stream: events of other streams leave the state as it is. */
export const foldQuarantine = (state: QuarantineState, event: { stream: string; type: string; data: unknown }): QuarantineState =>
  event.stream === QUARANTINE_STREAM ? evolve(state, event as QuarantineEvent) : state;
