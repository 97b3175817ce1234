// The delivery lifecycle of one notification: attempt, then wait and attempt again until it lands, is refused
// for good, or the retry window closes. Deterministic and free of I/O (run by Temporal or in-process):
// every effect is an activity, and time, waiting and chance come from the runtime.
import type { Verdict } from './decider.ts';

/** Retries of the bookkeeping activity (recording an abandon), not of sending: Temporal and in-process alike. */
export const deliveryRecordRetry = {
  initialIntervalMs: 1_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 60_000,
  maximumAttempts: 10,
} as const;

export interface DeliveryRetryPolicy {
  /** First backoff ceiling; it doubles with each attempt. */
  initialMs: number;
  /** Largest wait between two attempts, Retry-After included. */
  maxMs: number;
  /** No attempt starts later than this after the delivery was requested. */
  windowMs: number;
}

/** Which delivery of which webhook: all an attempt needs (the body and the attempts so far are in its stream). */
export interface DeliveryTarget {
  webhookId: number;
  deliveryId: string;
}

export interface DeliveryInput extends DeliveryTarget {
  /** When the delivery was requested (ISO); the retry window counts from here. */
  requested: string;
  retry: DeliveryRetryPolicy;
}

/** `stopped`: nothing was sent (the delivery is already over, or its webhook was deleted or disabled). */
export type AttemptOutcome = Verdict | 'stopped';

export interface AttemptResult {
  outcome: AttemptOutcome;
  attempt: number;
  status: number | null;
  error: string | null;
  /** What the receiver's Retry-After asked for, in ms. */
  retryAfterMs: number | null;
  /** Global position of the last event recorded (0 when none). */
  position: number;
}

/** `once` is the test route: a single attempt, sent even to a disabled webhook, final whatever happens. */
export type AttemptMode = 'retrying' | 'once';

export interface DeliveryActivities {
  /** Sends the delivery's body once, signed, and records the attempt; receiver failures are results, not errors. */
  attemptDelivery(target: DeliveryTarget, mode?: AttemptMode): Promise<AttemptResult>;
  abandonDelivery(target: DeliveryTarget, reason: string): Promise<void>;
}

export interface DeliveryRuntime {
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Uniform in [0, 1), for jitter. */
  random(): number;
}

export type DeliveryEnd = 'delivered' | 'failed' | 'stopped' | 'abandoned';

export async function deliveryLifecycle(activities: DeliveryActivities, input: DeliveryInput, runtime: DeliveryRuntime): Promise<DeliveryEnd> {
  const deadline = Date.parse(input.requested) + input.retry.windowMs;
  for (let attempt = 1; ; attempt++) {
    let outcome: AttemptOutcome = 'retry';
    let askedMs: number | null = null;
    try {
      const result = await activities.attemptDelivery(input);
      outcome = result.outcome;
      askedMs = result.retryAfterMs;
      // After a restart the count goes on from the attempts already recorded.
      attempt = Math.max(attempt, result.attempt);
    } catch {
      // The attempt could not run or record (store away, worker lost): it is tried again; at least once.
    }
    if (outcome !== 'retry') return outcome;
    const delay = retryDelayMs(input.retry, attempt, askedMs, runtime.random());
    if (runtime.now() + delay > deadline) {
      await activities.abandonDelivery(input, `not delivered within ${describeMs(input.retry.windowMs)}`);
      return 'abandoned';
    }
    await runtime.sleep(delay);
  }
}

/** Exponential backoff with full jitter, never shorter than the receiver's Retry-After, capped at the maximum. */
export function retryDelayMs(policy: DeliveryRetryPolicy, attempt: number, retryAfterMs: number | null, random: number): number {
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** (attempt - 1));
  return Math.min(policy.maxMs, Math.max(retryAfterMs ?? 0, Math.floor(random * ceiling)));
}

/** What an HTTP answer (or its absence) means for the delivery; 410 is `gone`: the webhook is to be disabled. */
export function verdictOf(status: number | null): Verdict | 'gone' {
  if (status === null) return 'retry';
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'failed';
}

/** A Retry-After header (seconds, or an HTTP date) as a wait in ms; null when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, nowMs: number): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  // Every HTTP date form starts with the day's name; Date.parse alone would read "-5" as a year.
  const date = /^[A-Za-z]{3}/.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

function describeMs(ms: number): string {
  const units: [number, string][] = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute'], [1_000, 'second']];
  const [size, name] = units.find(([unit]) => ms >= unit && ms % unit === 0) ?? [1, 'millisecond'];
  const count = ms / size;
  return `${count} ${name}${count === 1 ? '' : 's'}`;
}
