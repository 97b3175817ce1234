// Liveness (`/health`) and readiness (`/ready`: event store reachable, each projection's lag, the quarantine);
// both answer without a key, for load balancers and orchestrators.
import type Koa from 'koa';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import type { ProjectionProgress, ProjectionRunner } from '../../projections/runner.ts';

export interface HealthDeps {
  events: EventStore;
  runner: ProjectionRunner;
  /** True once shutdown has begun: the balancer should stop sending requests here. */
  draining: () => boolean;
}

const PROBE_TIMEOUT_MS = 2_000;
/** A projection whose next event is older than this is stalled, not just busy. */
export const READY_MAX_LAG_SECONDS = 30;

interface ProjectionReport {
  name: string;
  position: number;
  lag_seconds: number;
  waiting_since: string | null;
}

const withTimeout = <T>(work: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
};

/** Lag in seconds: the age of the oldest event a projection has not passed yet (0 when it is at the head). */
async function reportsOf(events: EventStore, progress: ProjectionProgress[], now: number): Promise<ProjectionReport[]> {
  const nextAfter = new Map<number, Promise<number>>();
  const ageAfter = (position: number) => {
    if (!nextAfter.has(position)) {
      nextAfter.set(position, events.readAll(position, 1).then(([next]) => (next ? Math.max(0, Math.round((now - Date.parse(next.created)) / 1000)) : 0)));
    }
    return nextAfter.get(position)!;
  };
  return Promise.all(progress.map(async ({ name, position, waitingSince }) => ({ name, position, lag_seconds: await ageAfter(position), waiting_since: waitingSince })));
}

async function readiness({ events, runner, draining }: HealthDeps) {
  const reasons: string[] = [];
  if (draining()) reasons.push('shutting down');
  let projections: ProjectionReport[] = [];
  let reachable = true;
  try {
    projections = await withTimeout(reportsOf(events, runner.progress(), Date.now()), PROBE_TIMEOUT_MS);
  } catch (error) {
    reachable = false;
    reasons.push(`the event store cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  for (const projection of projections) {
    if (projection.waiting_since) reasons.push(`projection ${projection.name} waits for its store since ${projection.waiting_since}`);
    else if (projection.lag_seconds > READY_MAX_LAG_SECONDS) reasons.push(`projection ${projection.name} is ${projection.lag_seconds} s behind`);
  }
  // Quarantined events are reported, not counted against readiness: each concerns one event, and taking every
  // replica out of service for it would turn one bad event into an outage.
  const quarantined = runner.quarantined();
  const body = {
    status: reasons.length === 0 ? 'ready' : 'unavailable',
    reasons,
    event_store: { reachable },
    projections,
    quarantine: {
      count: quarantined.length,
      events: quarantined.map((entry) => ({ projection: entry.projection, position: entry.position, event_type: entry.eventType, since: entry.quarantined, failures: entry.failures })),
    },
  };
  return { ready: reasons.length === 0, body };
}

export function mountHealth(app: Koa, deps: HealthDeps) {
  app.use(async function health(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/health') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'live' };
      return;
    }
    if (ctx.path !== '/ready') return next();
    const { ready, body } = await readiness(deps);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = ready ? 200 : 503;
    ctx.body = body;
  });
}
