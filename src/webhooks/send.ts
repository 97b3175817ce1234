// One POST of a notification to a receiver through the guarded fetcher: no redirects followed, bounded time,
// the answer's status.
import { discardBody, FetchError, guardedFetch } from '../infrastructure/fetch/fetcher.ts';

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface Sent {
  /** The receiver's HTTP status, or null when no answer came in time (or at all). */
  status: number | null;
  error: string | null;
  /** True when the destination was refused before any byte was sent: a permanent failure. */
  refused: boolean;
  retryAfter: string | null;
  durationMs: number;
}

/** A receiver's answer body is read (to let it finish) and dropped; past this size it is not read further. */
const ANSWER_LIMIT_BYTES = 64 * 1024;

export async function postJson(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<Sent> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await guardedFetch(url, {
      method: 'POST',
      headers,
      body,
      maxBytes: ANSWER_LIMIT_BYTES,
      timeoutMs: options.timeoutMs,
      redirect: 'manual',
      allowPrivate: options.allowPrivate,
    });
    const header = response.headers['retry-after'];
    // An answer whose status came but whose body did not end in time (or was too long) still counts by its status.
    await discardBody(response).catch(() => undefined);
    return { status: response.status, error: null, refused: false, retryAfter: typeof header === 'string' ? header : null, durationMs: elapsed() };
  } catch (error) {
    const failure = error instanceof FetchError ? error : new FetchError('network', String(error));
    return { status: null, error: failure.message, refused: failure.reason === 'refused', retryAfter: null, durationMs: elapsed() };
  }
}
