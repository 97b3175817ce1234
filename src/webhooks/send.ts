// One POST of a notification to a receiver: guarded destination, bounded time, the answer's status.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, hostOf, isPrivateAddress, RefusedDestination } from './addresses.ts';

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

export async function postJson(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<Sent> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const host = hostOf(target);
  // A literal address is connected to without a lookup, so it is checked here.
  if (!options.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
    return { status: null, error: new RefusedDestination(host, host).message, refused: true, retryAfter: null, durationMs: elapsed() };
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<Sent>((resolve) => {
    let status: number | null = null;
    let retryAfter: string | null = null;
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const refused = error instanceof RefusedDestination;
      resolve({ status: refused ? null : status, error: error?.message ?? null, refused, retryAfter, durationMs: elapsed() });
    };
    const request = client.request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: guardedLookup(options.allowPrivate), agent: false },
      (response) => {
        status = response.statusCode ?? null;
        const header = response.headers['retry-after'];
        retryAfter = typeof header === 'string' ? header : null;
        // The body is read and dropped: only the status counts, once the receiver has finished answering.
        response.on('end', () => finish(null));
        response.on('error', () => finish(null));
        response.resume();
      },
    );
    const timer = setTimeout(() => {
      // An answer whose status came but whose body did not end in time still counts by its status.
      finish(status === null ? new Error(`no answer within ${options.timeoutMs} ms`) : null);
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error) => finish(error));
    request.end(body);
  });
}
