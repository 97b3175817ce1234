// The runner's view of the quarantine: what the whole stream says now, what it said at the runner's position,
// and recording outcomes through the decider.
import type { EventStore, RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import { handleCommand } from '../src/shared/decider.ts';
import {
  QUARANTINE_STREAM,
  entryKey,
  foldQuarantine,
  openEntries,
  quarantineDecider,
  type QuarantineCommand,
  type QuarantineEntry,
  type QuarantineState,
} from './quarantine.ts';

export interface QuarantineLog {
  /** Every entry as the stream says now (for `/ready`). */
  current(): QuarantineState;
  /** Entries of a projection still quarantined at the runner's position: what a retry request there applies to. */
  openAt(projection: string, positions: number[] | null): QuarantineEntry[];
  /** Ever quarantined for that projection: a replay then tries it once rather than several times. */
  isKnown(projection: string, position: number): boolean;
  isOpen(projection: string, position: number): boolean;
  record(command: QuarantineCommand): Promise<void>;
  /** Follows the log as the runner passes each event. */
  observe(event: RecordedEvent): void;
}

/** `from`: the position the runner starts after; the stream's events up to it are what it has already passed. */
export async function openQuarantineLog(events: EventStore, from: number): Promise<QuarantineLog> {
  let current: QuarantineState = {};
  /** Whether `current` holds no entry: the runner asks about every event it applies, and a key is a string to build. */
  let none = true;
  let currentUpTo = 0;
  const reload = async () => {
    const recorded = await events.readStream(QUARANTINE_STREAM);
    current = recorded.reduce(foldQuarantine, {});
    none = Object.keys(current).length === 0;
    currentUpTo = recorded.at(-1)?.position ?? 0;
    return recorded;
  };
  let passed = (await reload()).filter((event) => event.position <= from).reduce(foldQuarantine, {} as QuarantineState);

  return {
    current: () => current,
    openAt(projection, positions) {
      return openEntries(passed).filter((entry) => entry.projection === projection && (positions === null || positions.includes(entry.position)));
    },
    isKnown: (projection, position) => !none && entryKey(projection, position) in current,
    isOpen: (projection, position) => !none && current[entryKey(projection, position)]?.status === 'quarantined',
    async record(command) {
      const { position } = await handleCommand(events, QUARANTINE_STREAM, quarantineDecider, command);
      // Read again rather than fold the decision in: other processes may have recorded meanwhile.
      if (position > 0) await reload();
    },
    observe(event) {
      if (event.stream !== QUARANTINE_STREAM) return;
      passed = foldQuarantine(passed, event);
      if (event.position > currentUpTo) {
        current = foldQuarantine(current, event);
        none = Object.keys(current).length === 0;
        currentUpTo = event.position;
      }
    },
  };
}
