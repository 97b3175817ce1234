// A process that does not run the projections follows the one that does: read-your-writes waits for the position the
// leader publishes in its lease term, and progress is what the leader's checkpoints say (docs/deployment.md).
import type { EventStore } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import { CHECKPOINTS } from './projection.ts';
import { openEntries, type QuarantineEntry } from './quarantine.ts';
import { openQuarantineLog } from './quarantineLog.ts';
import type { Lease } from './lease.ts';
import { READ_YOUR_WRITES_MS, type ProjectionProgress } from './runner.ts';
import { positionWaiters } from './waiters.ts';

/** How often a waiting write asks where the leader is: one small read, only while writes wait. */
const POLL_MS = 20;
/** How often progress and the quarantine are read for /ready. */
const REPORT_MS = 2_000;

export interface Follower {
  readonly position: number;
  waitFor(position: number, timeoutMs?: number): Promise<boolean>;
  progress(): ProjectionProgress[];
  quarantined(): QuarantineEntry[];
  close(): void;
}

export function createFollower(events: EventStore, read: ReadStore, lease: Lease, names: string[], log: (message: string) => void): Follower {
  let position = 0;
  let progress: ProjectionProgress[] = names.map((name) => ({ name, position: 0, waitingSince: null }));
  let quarantined: QuarantineEntry[] = [];
  const waiters = positionWaiters();
  let polling: NodeJS.Timeout | undefined;
  let closed = false;

  const poll = async () => {
    polling = undefined;
    try {
      position = Math.max(position, (await lease.latest())?.position ?? 0);
      waiters.passed(position);
    } catch (error) {
      log(`could not read where the projections are: ${String(error)}`);
    }
    if (waiters.waiting > 0 && !closed) polling = setTimeout(() => void poll(), POLL_MS);
  };

  const report = async () => {
    try {
      const checkpoints = await read.collection<{ _id: string; position?: number }>(CHECKPOINTS).find({ _id: { $in: names } });
      const at = new Map(checkpoints.map((checkpoint) => [checkpoint._id, checkpoint.position ?? 0]));
      progress = names.map((name) => ({ name, position: at.get(name) ?? 0, waitingSince: null }));
      quarantined = openEntries((await openQuarantineLog(events, position)).current());
    } catch (error) {
      log(`could not read the projections' progress: ${String(error)}`);
    }
  };
  void report();
  const reporting = setInterval(() => void report(), REPORT_MS);
  reporting.unref();

  return {
    get position() {
      return position;
    },
    waitFor(target, timeoutMs = READ_YOUR_WRITES_MS) {
      if (target <= position) return Promise.resolve(true);
      if (closed) return Promise.resolve(false);
      const waited = waiters.wait(target, timeoutMs);
      polling ??= setTimeout(() => void poll(), 0);
      return waited;
    },
    progress: () => progress,
    quarantined: () => quarantined,
    close() {
      closed = true;
      clearInterval(reporting);
      clearTimeout(polling);
      waiters.abandon();
    },
  };
}
