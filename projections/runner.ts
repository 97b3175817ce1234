// Runs projections over the global log: one catch-up subscription, events applied in batches whose documents and
// checkpoints commit together, and a quarantine for events a projection cannot apply, so no event can stall the
// others (docs/operations.md).
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, RecordedEvent, Subscription } from '../src/infrastructure/eventStore/port.ts';
import { inTransaction, type ReadStore } from '../src/infrastructure/readStore/port.ts';
import { describeFailure, failureKind } from '../src/shared/failures.ts';
import { createBatchStore, type BatchStore } from './batchStore.ts';
import { CHECKPOINTS, type Projection } from './projection.ts';
import { QUARANTINE_STREAM, openEntries, type QuarantineEntry, type QuarantineRetryRequested } from './quarantine.ts';
import { openQuarantineLog } from './quarantineLog.ts';
import { positionWaiters } from './waiters.ts';

type Checkpoint = { _id: string; position: number };

/**
 * Events applied in one read-store transaction. A replay's events come in runs per item, so a batch writes each
 * document once instead of once per event, and the fewer its commits the less SQLite spends writing its log and
 * copying it back into the file. The batch and the next one queued are in memory: at 100,000 items a replay in
 * batches of 4,000 peaks at 375–400 MB resident, as in batches of 2,000 (what is left is garbage between two
 * collections, not the batch), and runs 5 % slower than in batches of 8,000, which peak at 450 MB, and 10 % faster
 * than in batches of 2,000 (bench/rebuild.ts). Live events come one by one and make batches of one.
 */
const BATCH_EVENTS = 4_000;
/**
 * A projection starting from nothing with at least this many events to go loads its collections with their
 * indexes deferred (see the port's `deferIndexes`): rows go in without them, each index is then built in one pass.
 */
const BULK_LOAD_EVENTS = 10_000;
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
  /**
   * For a build into collections that are renamed into place afterwards (an online rebuild): indexes deferred for
   * the bulk load, its own or one on several threads before it (collections it finds loaded), are left for the
   * rename's `ensureIndex` to build, once, under the collections' final names.
   */
  keepIndexesDeferred?: boolean;
}

/** The runner was closed while an event was in hand: the event stays unpassed, so nothing checkpoints past it. */
class RunnerClosed extends Error {}

/** The read store projections write to: a batch's (which holds writes until `flush`) or the store itself. */
type Store = ReadStore & Partial<Pick<BatchStore, 'flush'>>;

/** A projection's store is away: the batch is given up whole (its transaction may be gone) and tried again later. */
class StoreAway extends Error {
  constructor(readonly projection: string, readonly failure: unknown) {
    super(`the store of ${projection} is away`, { cause: failure });
  }
}

/** The projections' collections with their indexes, or those of the collections `only` accepts. */
export async function ensureCollections(read: ReadStore, projections: Projection[], only?: (collection: string) => Promise<boolean>): Promise<void> {
  for (const projection of projections) {
    for (const [name, indexes] of Object.entries(projection.collections)) {
      if (only && !(await only(name))) continue;
      for (const index of indexes) await read.collection(name).ensureIndex(index);
    }
  }
}

/**
 * Empty collections made ready for a bulk load, as a runner loads a long log: every key column made, then the indexes
 * deferred (a rebuild builds them before its swap).
 */
export async function readyForBulkLoad(read: ReadStore, projections: Projection[]): Promise<void> {
  await ensureCollections(read, projections);
  for (const projection of projections) for (const name of Object.keys(projection.collections)) await read.collection(name).deferIndexes?.();
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
  /** Also the events the subscription may deliver ahead of the batch being applied (the next batch); past them, it waits (memory stays flat). */
  const batchEvents = Math.min(BATCH_EVENTS, ...all.map((projection) => projection.batchEvents ?? BATCH_EVENTS));
  // Collections loaded already (on several threads) leave their deferred indexes to the rename.
  const empty = async (name: string) => !(await read.collection(name).findOne({}));
  await ensureCollections(read, all, options.keepIndexesDeferred ? empty : undefined);
  const checkpoints = read.collection<Checkpoint>(CHECKPOINTS);
  const saved = async (name: string) => (await checkpoints.findOne({ _id: name }))?.position;
  /** Where each projection is, as committed: a batch works on a copy and replaces it when it commits. */
  let applied = new Map<string, number>();
  for (const projection of projections) applied.set(projection.name, (await saved(projection.name)) ?? 0);
  const readModelsAt = Math.min(...projections.map((projection) => applied.get(projection.name)!));
  for (const reactor of reactors) applied.set(reactor.name, (await saved(reactor.name)) ?? readModelsAt);
  const stored = new Map(applied);
  let position = Math.min(...applied.values());
  log(`projections resume after position ${position}`);
  let loading = await deferIndexes(events, read, projections.filter((projection) => applied.get(projection.name) === 0));
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
  const waiters = positionWaiters();
  let closed = false;
  const stopping = new AbortController();
  const now = () => new Date().toISOString();

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

  /**
   * Applies one event, or quarantines it; `at` is the log position in hand (the event's, or a retry request's).
   * An event the quarantine knows is written through at once (`flush`), so what is recorded about it (released,
   * failed again) is what the store did with its documents, not with documents held for later.
   */
  const applyOrQuarantine = async (projection: Projection, event: RecordedEvent, at: number, store: Store) => {
    const { name } = projection;
    const parkedAt = parked.get(name)!.get(event.stream);
    if (parkedAt !== undefined && parkedAt < event.position) {
      return recordFailure(name, event, at, `held: the event at position ${parkedAt} of its stream is quarantined`);
    }
    const known = quarantine.isKnown(name, event.position);
    // The events before it are written first: a refusal of theirs is the batch's, not this event's.
    if (known) await store.flush?.();
    for (let failures = 0; ; ) {
      try {
        await projection.apply(event, store);
        if (known) await store.flush?.();
        waitingSince.delete(name);
        if (quarantine.isOpen(name, event.position)) {
          await persist(`the release of position ${event.position}`, () => quarantine.record({ kind: 'RecordRelease', projection: name, position: event.position, at, now: now() }));
        }
        return;
      } catch (error) {
        if (closed) throw new RunnerClosed();
        const kind = failureKind(error);
        // Skipping would lose the event: the batch waits for the store, however long it takes.
        if (kind === 'unavailable') throw new StoreAway(name, error);
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
  const retryQuarantined = async (projection: Projection, request: RecordedEvent, store: Store) => {
    const { positions } = (request as unknown as QuarantineRetryRequested).data;
    const streams = parked.get(projection.name)!;
    const from = new Map<string, number>();
    for (const entry of quarantine.openAt(projection.name, positions)) {
      from.set(entry.stream, Math.min(from.get(entry.stream) ?? entry.position, streams.get(entry.stream) ?? entry.position));
    }
    for (const [stream, first] of from) {
      streams.delete(stream);
      for (const event of await events.readStream(stream)) {
        if (event.position >= first && event.position < request.position) await applyOrQuarantine(projection, event, request.position, store);
      }
    }
  };

  /**
   * A batch's events held for projections that apply many at once (`applyAll`), applied before any other event of
   * theirs and at the end of the batch. A failure sends the batch through again event by event (`exact`), which pins
   * it on its event.
   */
  type Held = Map<Projection, RecordedEvent[]>;
  const applyHeld = async (held: Held, store: Store, projection: Projection) => {
    const events = held.get(projection);
    if (!events) return;
    held.delete(projection);
    try {
      await projection.applyAll!(events, store);
    } catch (error) {
      if (closed) throw new RunnerClosed();
      throw failureKind(error) === 'unavailable' ? new StoreAway(projection.name, error) : error;
    }
  };

  /** Whether the event can wait for its projection's `applyAll`: nothing about it or its stream is quarantined. */
  const canHold = (projection: Projection, event: RecordedEvent) => {
    const parkedAt = parked.get(projection.name)!.get(event.stream);
    return (parkedAt === undefined || parkedAt >= event.position) && !quarantine.isKnown(projection.name, event.position);
  };

  /**
   * One event through every projection that has not passed it; `reached` is the batch's copy of `applied`, `held`
   * the events held for `applyAll` (absent: each event applied alone).
   */
  const handle = async (event: RecordedEvent, store: Store, reached: Map<string, number>, held?: Held) => {
    for (const projection of all) {
      if (event.position <= reached.get(projection.name)!) continue;
      const ours = event.stream.startsWith(projection.streamPrefix);
      const retry = event.stream === QUARANTINE_STREAM && event.type === 'QuarantineRetryRequested';
      if (held && projection.applyAll && ours && !retry && canHold(projection, event)) {
        let events = held.get(projection);
        if (!events) held.set(projection, (events = []));
        events.push(event);
      } else if (ours || retry) {
        if (held) await applyHeld(held, store, projection);
        if (ours) await applyOrQuarantine(projection, event, event.position, store);
        if (retry) await retryQuarantined(projection, event, store);
      }
      reached.set(projection.name, event.position);
    }
    quarantine.observe(event);
  };

  /** The batch's checkpoints, after its documents (where the store has no transaction, never ahead of them). */
  const saveCheckpoints = async (store: ReadStore, reached: Map<string, number>) => {
    const moved = [...reached].filter(([name, at]) => stored.get(name) !== at).map(([name, at]) => ({ put: { _id: name, position: at } }));
    const collection = store.collection<Checkpoint>(CHECKPOINTS);
    if (collection.bulkWrite) await collection.bulkWrite(moved);
    else for (const { put } of moved) await collection.put(put);
  };

  /**
   * One transaction: the events through the projections on a store that reads and writes each document once, the
   * documents, then the checkpoints. A write the store refuses at the end (a document SQLite cannot hold) sends the
   * batch through again on the transaction itself, event by event, so the failure is pinned on its event.
   */
  const applyBatch = async (batch: RecordedEvent[]) => {
    let exact = false;
    for (let delay = 100; ; ) {
      const reached = new Map(applied);
      try {
        await inTransaction(read, async (transaction) => {
          const store = exact ? null : createBatchStore(transaction);
          const held: Held | undefined = store ? new Map() : undefined;
          for (const event of batch) await handle(event, store ?? transaction, reached, held);
          if (held) for (const projection of [...held.keys()]) await applyHeld(held, store!, projection);
          await store?.flush();
          await saveCheckpoints(transaction, reached);
        });
      } catch (error) {
        if (closed || error instanceof RunnerClosed) throw new RunnerClosed();
        const away = error instanceof StoreAway ? error : failureKind(error) === 'unavailable' ? new StoreAway('the read models', error) : null;
        if (away) {
          if (!waitingSince.has(away.projection)) waitingSince.set(away.projection, now());
          log(`projection ${away.projection} waits for its store at position ${batch[0]!.position}: ${describeFailure(away.failure)}`);
          await pause(delay);
          delay = Math.min(delay * 2, LONGEST_PAUSE_MS);
          continue;
        }
        if (exact) throw error;
        exact = true;
        continue;
      }
      waitingSince.delete('the read models');
      applied = reached;
      for (const [name, at] of reached) stored.set(name, at);
      position = batch.at(-1)!.position;
      // Loaded up to where the log ended at the start: the indexes are built before anyone waits on them.
      if (loading && position >= loading.until) {
        const { finish } = loading;
        if (!options.keepIndexesDeferred) await persist('the deferred indexes', finish);
        loading = null;
      }
      for (const event of batch) options.onApplied?.(event);
      options.onProgress?.(position);
      waiters.passed(position);
      return;
    }
  };

  // The subscription fills a queue; batches are taken from it. Events of a subscription given up are dropped.
  let queue: RecordedEvent[] = [];
  let queuedUpTo = position;
  let generation = 0;
  let working: Promise<void> | undefined;
  let room: (() => void)[] = [];
  const makeRoom = () => {
    for (const resume of room.splice(0)) resume();
  };
  let subscription: Subscription | undefined;

  const work = async () => {
    try {
      while (queue.length > 0 && !closed) {
        const batch = queue.splice(0, batchEvents);
        makeRoom();
        await applyBatch(batch);
        // The embedded stores answer synchronously, so a catch-up is all microtasks: timers (a lease's renewal)
        // and requests get their turn between batches.
        await new Promise((resume) => setImmediate(resume));
      }
    } catch (error) {
      restart(error);
    } finally {
      working = undefined;
    }
  };

  const deliver = (of: number) => async (event: RecordedEvent) => {
    if (of !== generation || closed || event.position <= queuedUpTo) return;
    queue.push(event);
    queuedUpTo = event.position;
    working ??= work();
    while (queue.length >= batchEvents && of === generation && !closed) await new Promise<void>((resume) => room.push(resume));
  };

  /** The event store failed under the subscription, or a batch could not be applied: start again from the last event every projection passed. */
  function restart(error: unknown) {
    if (closed || error instanceof RunnerClosed) return;
    log(`projection subscription stopped, resubscribing: ${describeFailure(error)}`);
    generation += 1;
    queue = [];
    makeRoom();
    void subscription?.close();
    setTimeout(() => void subscribe(), RESUBSCRIBE_MS).unref();
  }

  const subscribe = async () => {
    await working;
    if (closed) return;
    queuedUpTo = position;
    subscription = events.subscribeToAll(position, deliver(generation), restart);
  };
  await subscribe();

  return {
    get position() {
      return position;
    },
    waitFor(target, timeoutMs = READ_YOUR_WRITES_MS) {
      if (target <= position) return Promise.resolve(true);
      if (closed) return Promise.resolve(false);
      return waiters.wait(target, timeoutMs);
    },
    progress: () => all.map(({ name }) => ({ name, position: applied.get(name)!, waitingSince: waitingSince.get(name) ?? waitingSince.get('the read models') ?? null })),
    quarantined: () => openEntries(quarantine.current()),
    async close() {
      closed = true;
      stopping.abort();
      generation += 1;
      makeRoom();
      await subscription?.close();
      await working;
      waiters.abandon();
    },
  };
}

/**
 * Defers the indexes of projections that start from nothing with a long log ahead; `finish` ensures them again
 * (once, however often it is called). Null when there is nothing to defer.
 */
async function deferIndexes(events: EventStore, read: ReadStore, starting: Projection[]) {
  const until = starting.length > 0 ? await events.headPosition() : 0;
  if (until < BULK_LOAD_EVENTS) return null;
  const deferred: Projection[] = [];
  for (const projection of starting) {
    let all = true;
    for (const name of Object.keys(projection.collections)) all = ((await read.collection(name).deferIndexes?.()) ?? false) && all;
    if (all) deferred.push(projection);
    else await ensureCollections(read, [projection]);
  }
  if (deferred.length === 0) return null;
  let finished: Promise<void> | undefined;
  const finish = () =>
    (finished ??= ensureCollections(read, deferred).catch((error: unknown) => {
      finished = undefined;
      throw error;
    }));
  return { until, finish };
}

/** Resolves when the runner has passed everything that was in the log when it was called. */
export async function catchUp(events: EventStore, runner: ProjectionRunner): Promise<void> {
  await runner.waitFor(await events.headPosition(), Infinity);
}
