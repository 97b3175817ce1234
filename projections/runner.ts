// Runs projections over the global log: one catch-up subscription, a checkpoint per projection beside its data,
// and a quarantine for events a projection cannot apply, so no event can stall the others (docs/operations.md).
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, RecordedEvent, Subscription } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import { describeFailure, failureKind } from '../src/shared/failures.ts';
import { CHECKPOINTS, type Projection } from './projection.ts';
import { QUARANTINE_STREAM, openEntries, type QuarantineEntry, type QuarantineRetryRequested } from './quarantine.ts';
import { openQuarantineLog } from './quarantineLog.ts';

type Checkpoint = { _id: string; position: number };

const CHECKPOINT_INTERVAL_MS = 1_000;
/** The longest a write waits for the read models before answering from what it has. */
export const READ_YOUR_WRITES_MS = 2_000;
/** Failures of unknown kind in a row before the event is quarantined. */
const ATTEMPTS = 3;
const LONGEST_PAUSE_MS = 10_000;
const RESUBSCRIBE_MS = 1_000;

export interface ProjectionProgress {
  name: string;
  /** Position of the last event it has passed. */
  position: number;
  /** When it began waiting for a store that is away (ISO), or null. */
  waitingSince: string | null;
}

export interface ProjectionRunner {
  /**
   * Resolves true once every projection has passed the event at `position` (read-your-writes), or false
   * after `timeoutMs` (by default READ_YOUR_WRITES_MS), so that no write waits on a projection without a bound.
   */
  waitFor(position: number, timeoutMs?: number): Promise<boolean>;
  /** Position of the last event every projection has passed. */
  readonly position: number;
  progress(): ProjectionProgress[];
  /** Events still quarantined, as the log says now. */
  quarantined(): QuarantineEntry[];
  close(): Promise<void>;
}

export interface RunnerOptions {
  onProgress?: (position: number) => void;
  /** Called with each event once every projection has passed it. */
  onApplied?: (event: RecordedEvent) => void;
  log?: (message: string) => void;
  /**
   * Act on events rather than build read models (e.g. request webhook deliveries); applied after the read models,
   * checkpointed and quarantined the same way. Without a checkpoint of their own they start where the read models
   * are, so that adding one to a running deployment does not act on its whole history.
   */
  reactors?: Projection[];
}

/** The runner was closed while an event was in hand: the event stays unpassed, so nothing checkpoints past it. */
class RunnerClosed extends Error {}

export async function ensureCollections(read: ReadStore, projections: Projection[]): Promise<void> {
  for (const projection of projections) {
    for (const [name, indexes] of Object.entries(projection.collections)) {
      for (const index of indexes) await read.collection(name).ensureIndex(index);
    }
  }
}

export async function startProjections(
  events: EventStore,
  read: ReadStore,
  projections: Projection[],
  options: RunnerOptions = {},
): Promise<ProjectionRunner> {
  const log = options.log ?? (() => undefined);
  const reactors = options.reactors ?? [];
  const all = [...projections, ...reactors];
  await ensureCollections(read, all);
  const checkpoints = read.collection<Checkpoint>(CHECKPOINTS);
  const saved = async (name: string) => (await checkpoints.findOne({ _id: name }))?.position;
  const applied = new Map<string, number>();
  for (const projection of projections) applied.set(projection.name, (await saved(projection.name)) ?? 0);
  const readModelsAt = Math.min(...projections.map((projection) => applied.get(projection.name)!));
  for (const reactor of reactors) applied.set(reactor.name, (await saved(reactor.name)) ?? readModelsAt);
  let position = Math.min(...applied.values());
  const quarantine = await openQuarantineLog(events, position);
  // A stream with a quarantined event is parked for that projection: its later events are held (quarantined too)
  // rather than applied on a base they do not expect; a retry applies them all again, in order.
  const parked = new Map(all.map(({ name }) => [name, new Map<string, number>()]));
  const park = (name: string, stream: string, at: number) => {
    const streams = parked.get(name)!;
    if (!streams.has(stream)) streams.set(stream, at);
  };
  for (const entry of openEntries(quarantine.current())) {
    if (parked.has(entry.projection) && entry.position <= applied.get(entry.projection)!) park(entry.projection, entry.stream, entry.position);
  }
  const waitingSince = new Map<string, string>();
  const waiters = new Set<{ position: number; settle: (reached: boolean) => void }>();
  let closed = false;
  const stopping = new AbortController();
  const now = () => new Date().toISOString();

  // Checkpoints are saved at most once a second: replaying the few events after one is harmless,
  // since projections are idempotent, and a write per event would halve a remote store's throughput.
  const unsaved = new Map<string, number>();
  const saveCheckpoints = async () => {
    for (const [name, at] of [...unsaved]) {
      unsaved.delete(name);
      await checkpoints.put({ _id: name, position: at }).catch((error: unknown) => {
        if (!unsaved.has(name)) unsaved.set(name, at);
        log(`checkpoint of ${name} not saved: ${describeFailure(error)}`);
      });
    }
  };
  const saving = setInterval(() => void saveCheckpoints(), CHECKPOINT_INTERVAL_MS);
  saving.unref();

  const pause = async (ms: number) => {
    await sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined);
    if (closed) throw new RunnerClosed();
  };

  /** What must not be skipped (a quarantine record) is tried until it is written or the runner closes. */
  const persist = async (what: string, write: () => Promise<void>) => {
    for (let delay = 100; ; delay = Math.min(delay * 2, LONGEST_PAUSE_MS)) {
      try {
        return await write();
      } catch (error) {
        if (closed) throw new RunnerClosed();
        log(`could not record ${what}, retrying: ${describeFailure(error)}`);
        await pause(delay);
      }
    }
  };

  const recordFailure = (name: string, event: RecordedEvent, at: number, error: string) =>
    persist(`the quarantine of position ${event.position}`, () =>
      quarantine.record({ kind: 'RecordFailure', projection: name, position: event.position, at, eventId: event.id, stream: event.stream, eventType: event.type, error, now: now() }),
    );

  /** Applies one event, or quarantines it; `at` is the log position in hand (the event's, or a retry request's). */
  const applyOrQuarantine = async (projection: Projection, event: RecordedEvent, at: number) => {
    const { name } = projection;
    const parkedAt = parked.get(name)!.get(event.stream);
    if (parkedAt !== undefined && parkedAt < event.position) {
      return recordFailure(name, event, at, `held: the event at position ${parkedAt} of its stream is quarantined`);
    }
    const known = quarantine.isKnown(name, event.position);
    for (let failures = 0, delay = 100; ; ) {
      try {
        await projection.apply(event, read);
        waitingSince.delete(name);
        if (quarantine.isOpen(name, event.position)) {
          await persist(`the release of position ${event.position}`, () => quarantine.record({ kind: 'RecordRelease', projection: name, position: event.position, at, now: now() }));
        }
        return;
      } catch (error) {
        if (closed) throw new RunnerClosed();
        const kind = failureKind(error);
        if (kind === 'unavailable') {
          // Skipping would lose the event: wait for the store, however long it takes.
          if (!waitingSince.has(name)) waitingSince.set(name, now());
          log(`projection ${name} waits for its store at position ${event.position}: ${describeFailure(error)}`);
          await pause(delay);
          delay = Math.min(delay * 2, LONGEST_PAUSE_MS);
          continue;
        }
        waitingSince.delete(name);
        failures += 1;
        if (kind === 'unknown' && !known && failures < ATTEMPTS) {
          await pause(100 * failures);
          continue;
        }
        const failure = describeFailure(error);
        if (!known) log(`projection ${name} quarantined position ${event.position} (${event.type} of ${event.stream}): ${failure}`);
        park(name, event.stream, event.position);
        return recordFailure(name, event, at, failure);
      }
    }
  };

  /**
   * Applies the streams of the requested entries again, in order, from their first event not applied up to the
   * request: an event held behind another is only ever applied after it.
   */
  const retryQuarantined = async (projection: Projection, request: RecordedEvent) => {
    const { positions } = (request as unknown as QuarantineRetryRequested).data;
    const streams = parked.get(projection.name)!;
    const from = new Map<string, number>();
    for (const entry of quarantine.openAt(projection.name, positions)) {
      from.set(entry.stream, Math.min(from.get(entry.stream) ?? entry.position, streams.get(entry.stream) ?? entry.position));
    }
    for (const [stream, first] of from) {
      streams.delete(stream);
      for (const event of await events.readStream(stream)) {
        if (event.position >= first && event.position < request.position) await applyOrQuarantine(projection, event, request.position);
      }
    }
  };

  const handle = async (event: RecordedEvent) => {
    for (const projection of all) {
      if (event.position <= applied.get(projection.name)!) continue;
      if (event.stream.startsWith(projection.streamPrefix)) await applyOrQuarantine(projection, event, event.position);
      if (event.stream === QUARANTINE_STREAM && event.type === 'QuarantineRetryRequested') await retryQuarantined(projection, event);
      applied.set(projection.name, event.position);
      unsaved.set(projection.name, event.position);
    }
    quarantine.observe(event);
    position = event.position;
    options.onApplied?.(event);
    options.onProgress?.(position);
    for (const waiter of waiters) if (waiter.position <= position) waiter.settle(true);
  };

  let subscription: Subscription;
  const subscribe = () => {
    subscription = events.subscribeToAll(position, handle, (error) => {
      if (closed || error instanceof RunnerClosed) return;
      // The event store failed under the subscription: start again from the last event every projection passed.
      log(`projection subscription stopped, resubscribing: ${describeFailure(error)}`);
      setTimeout(() => closed || subscribe(), RESUBSCRIBE_MS).unref();
    });
  };
  subscribe();

  return {
    get position() {
      return position;
    },
    waitFor(target, timeoutMs = READ_YOUR_WRITES_MS) {
      if (target <= position) return Promise.resolve(true);
      if (closed) return Promise.resolve(false);
      return new Promise((resolve) => {
        const waiter = {
          position: target,
          settle: (reached: boolean) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(reached);
          },
        };
        const timer = Number.isFinite(timeoutMs) ? setTimeout(() => waiter.settle(false), timeoutMs) : undefined;
        waiters.add(waiter);
      });
    },
    progress: () => all.map(({ name }) => ({ name, position: applied.get(name)!, waitingSince: waitingSince.get(name) ?? null })),
    quarantined: () => openEntries(quarantine.current()),
    async close() {
      closed = true;
      stopping.abort();
      await subscription.close();
      clearInterval(saving);
      await saveCheckpoints();
      for (const waiter of waiters) waiter.settle(false);
    },
  };
}

/** Resolves when the runner has passed everything that was in the log when it was called. */
export async function catchUp(events: EventStore, runner: ProjectionRunner): Promise<void> {
  let head = runner.position;
  for (;;) {
    const page = await events.readAll(head, 1000);
    if (page.length === 0) break;
    head = page[page.length - 1]!.position;
  }
  await runner.waitFor(head, Infinity);
}
