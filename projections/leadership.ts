// Runs the projections (and the reactors) in exactly one process among those sharing a read store: the holder of the
// projections lease leads with the ordinary runner, the others follow it and take over when its term runs out.
import type { EventStore } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import { describeFailure } from '../src/shared/failures.ts';
import { fencedStore } from './fencedStore.ts';
import { createFollower } from './follower.ts';
import { openLease } from './lease.ts';
import { CHECKPOINTS, type Projection } from './projection.ts';
import { catchUp, ensureCollections, READ_YOUR_WRITES_MS, startProjections, type ProjectionRunner, type RunnerOptions } from './runner.ts';

export interface LeadershipOptions extends RunnerOptions {
  /** How long a term lasts without renewal: the longest the projections stand still after their leader dies. */
  leaseMs: number;
  /** Called each time this process becomes the leader, once its runner has caught up (to resume unfinished work). */
  onLeading?: () => Promise<void>;
  /** The lease's name: one per set of projections that runs apart (the analytics run apart from the rest). */
  leaseName?: string;
}

export const PROJECTIONS_LEASE = 'projections';

/** A ProjectionRunner whichever role the process has; the role may change at every renewal. */
export async function startLeadership(events: EventStore, read: ReadStore, projections: Projection[], options: LeadershipOptions): Promise<ProjectionRunner> {
  const log = options.log ?? (() => undefined);
  const all = [...projections, ...(options.reactors ?? [])];
  // Followers query the read models too: their indexes must exist whoever leads.
  await ensureCollections(read, all);
  const lease = await openLease(read, { name: options.leaseName ?? PROJECTIONS_LEASE, ttlMs: options.leaseMs });
  const follower = createFollower(events, read, lease, all.map(({ name }) => name), log);
  let leader: ProjectionRunner | null = null;
  let starting = false;
  let closed = false;

  const stepDown = (why: string) => {
    const runner = leader;
    if (!runner) return;
    leader = null;
    log(`projections lease lost (${why}): following from now on`);
    // close() stops the runner at once: an event in hand stays unpassed, so nothing checkpoints past it.
    void runner.close();
  };
  // Each write of the leader checks its term first; the first refused one stops the runner.
  const fenced = fencedStore(read, () => lease.valid() || (stepDown('its term ran out before it was renewed'), false));

  /** The checkpoint the runner will resume from: the least position its projections have passed. */
  const resumeFrom = async () => {
    const saved = new Map((await read.collection<{ _id: string; position?: number }>(CHECKPOINTS).find({ _id: { $in: all.map(({ name }) => name) } })).map((c) => [c._id, c.position ?? 0]));
    return Math.min(...all.map(({ name }) => saved.get(name) ?? 0));
  };

  const lead = async () => {
    if (leader || starting || closed) return;
    starting = true;
    try {
      const from = await resumeFrom();
      if (!(await lease.claim(from))) return;
      log(`leading the projections: lease term ${lease.term}, resuming from position ${from}`);
      const runner = await startProjections(events, fenced, projections, {
        ...options,
        onProgress: (position) => {
          options.onProgress?.(position);
          lease.publish(position).catch((error: unknown) => log(`could not publish position ${position}: ${describeFailure(error)}`));
        },
      });
      if (closed || !lease.valid()) {
        await runner.close();
        return void (await lease.release());
      }
      leader = runner;
      void catchUp(events, runner)
        .then(() => (leader === runner ? options.onLeading?.() : undefined))
        .catch((error: unknown) => log(`resuming work as the projections leader failed: ${describeFailure(error)}`));
    } catch (error) {
      log(`could not start leading the projections: ${describeFailure(error)}`);
      await lease.release().catch(() => undefined);
    } finally {
      starting = false;
    }
  };

  let renewing = false;
  const tick = async () => {
    if (closed || renewing) return;
    if (!leader) return lead();
    renewing = true;
    try {
      if (!(await lease.renew())) stepDown('another process holds a later term, or it was not renewed in time');
    } finally {
      renewing = false;
    }
  };
  // Four renewals per term: one may fail (a slow store) and the term still holds.
  const ticking = setInterval(() => void tick(), Math.max(50, options.leaseMs / 4));
  ticking.unref();
  await lead();

  return {
    get position() {
      return leader?.position ?? follower.position;
    },
    async waitFor(target, timeoutMs = READ_YOUR_WRITES_MS) {
      const deadline = Date.now() + timeoutMs;
      const current = leader;
      if (current) {
        if (await current.waitFor(target, timeoutMs)) return true;
        if (closed || leader === current || Date.now() >= deadline) return false;
      }
      // Not leading, or the lease was lost while waiting: the position the leader publishes answers.
      return follower.waitFor(target, Math.max(0, deadline - Date.now()));
    },
    progress: () => leader?.progress() ?? follower.progress(),
    quarantined: () => leader?.quarantined() ?? follower.quarantined(),
    async close() {
      closed = true;
      clearInterval(ticking);
      follower.close();
      const runner = leader;
      leader = null;
      await runner?.close();
      // Saying so at once lets another process take over now rather than when the term runs out.
      await lease.release();
    },
  };
}
