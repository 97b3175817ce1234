// Runs projections over the global log: one catch-up subscription, a checkpoint per projection beside its data.
import type { EventStore, RecordedEvent, Subscription } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import { CHECKPOINTS, type Projection } from './projection.ts';

type Checkpoint = { _id: string; position: number };

const CHECKPOINT_INTERVAL_MS = 1_000;

export interface ProjectionRunner {
  /** Resolves once every projection has applied the event at `position` (read-your-writes). */
  waitFor(position: number): Promise<void>;
  /** Position of the last event every projection has applied. */
  readonly position: number;
  close(): Promise<void>;
}

export interface RunnerOptions {
  onProgress?: (position: number) => void;
  /** Called with each event once every projection has applied it. */
  onApplied?: (event: RecordedEvent) => void;
  log?: (message: string) => void;
}

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
  await ensureCollections(read, projections);
  const checkpoints = read.collection<Checkpoint>(CHECKPOINTS);
  const applied = new Map<string, number>();
  for (const projection of projections) {
    applied.set(projection.name, (await checkpoints.findOne({ _id: projection.name }))?.position ?? 0);
  }
  let position = Math.min(...applied.values());
  let closed = false;
  const waiters = new Set<{ position: number; resolve: () => void }>();

  // Checkpoints are saved at most once a second: replaying the few events after one is harmless,
  // since projections are idempotent, and a write per event would halve a remote store's throughput.
  const unsaved = new Map<string, number>();
  const saveCheckpoints = async () => {
    for (const [name, saved] of [...unsaved]) {
      unsaved.delete(name);
      await checkpoints.put({ _id: name, position: saved }).catch((error: unknown) => {
        if (!unsaved.has(name)) unsaved.set(name, saved);
        options.log?.(`checkpoint of ${name} not saved: ${String(error)}`);
      });
    }
  };
  const saving = setInterval(() => void saveCheckpoints(), CHECKPOINT_INTERVAL_MS);
  saving.unref();

  const applyWithRetry = async (projection: Projection, event: RecordedEvent) => {
    // A read store that went away is waited for: skipping the event would lose it.
    for (let delay = 100; !closed; delay = Math.min(delay * 2, 10_000)) {
      try {
        await projection.apply(event, read);
        unsaved.set(projection.name, event.position);
        return;
      } catch (error) {
        options.log?.(`projection ${projection.name} failed at position ${event.position}, retrying: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };

  const subscription: Subscription = events.subscribeToAll(
    position,
    async (event) => {
      for (const projection of projections) {
        if (event.position <= applied.get(projection.name)!) continue;
        if (event.stream.startsWith(projection.streamPrefix)) await applyWithRetry(projection, event);
        applied.set(projection.name, event.position);
      }
      position = event.position;
      options.onApplied?.(event);
      options.onProgress?.(position);
      for (const waiter of waiters) {
        if (waiter.position <= position) {
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
    },
    (error) => options.log?.(`projection subscription stopped: ${String(error)}`),
  );

  return {
    get position() {
      return position;
    },
    waitFor(target) {
      if (target <= position) return Promise.resolve();
      return new Promise((resolve) => waiters.add({ position: target, resolve }));
    },
    async close() {
      closed = true;
      await subscription.close();
      clearInterval(saving);
      await saveCheckpoints();
      for (const waiter of waiters) waiter.resolve();
    },
  };
}

/** Resolves when the runner has applied everything that was in the log when it was called. */
export async function catchUp(events: EventStore, runner: ProjectionRunner): Promise<void> {
  let head = runner.position;
  for (;;) {
    const page = await events.readAll(head, 1000);
    if (page.length === 0) break;
    head = page[page.length - 1]!.position;
  }
  await runner.waitFor(head);
}
