// Command handling shared by every capability: load a stream, decide, append with the expected revision.
import { conflict, type AppError } from './errors.ts';
import { WrongExpectedRevision, type EventStore, type NewEvent, type RecordedEvent } from '../infrastructure/eventStore/port.ts';

export interface Decider<State, Command, Event extends NewEvent> {
  initialState: State;
  evolve(state: State, event: Event): State;
  /** Pure: the events a command produces, or an error value. */
  decide(command: Command, state: State): Event[] | AppError;
}

export interface Handled<State> {
  state: State;
  /** Global position of the last appended event (0 when the command produced none). */
  position: number;
}

const MAX_ATTEMPTS = 5;

export const foldStream = <State, Event extends NewEvent>(
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  events: RecordedEvent[],
): State => events.reduce((state, event) => decider.evolve(state, event as unknown as Event), decider.initialState);

/**
 * Runs a command against a stream. A concurrent append makes it load and decide again,
 * so no write is lost; after repeated conflicts the caller gets a 409.
 */
export async function handleCommand<State, Command, Event extends NewEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<State, Command, Event>,
  command: Command,
): Promise<Handled<State>> {
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(stream);
    const state = foldStream(decider, recorded);
    const decision = decider.decide(command, state);
    if (!Array.isArray(decision)) throw decision;
    if (decision.length === 0) return { state, position: 0 };
    const expected = recorded.length === 0 ? 'no_stream' : recorded.length - 1;
    try {
      const { position } = await store.appendToStream(stream, decision, expected);
      return { state: decision.reduce(decider.evolve, state), position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw conflict();
    }
  }
}

/** Allocates the next positive integer of a named sequence, safely under concurrency. */
export async function allocateId(store: EventStore, sequence: string): Promise<number> {
  const stream = `sequence-${sequence}`;
  for (let attempt = 1; ; attempt++) {
    const revision = await store.streamRevision(stream);
    try {
      await store.appendToStream(stream, [{ type: 'IdAllocated', data: { id: revision + 2 } }], revision < 0 ? 'no_stream' : revision);
      return revision + 2;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt >= 20) throw error;
    }
  }
}
