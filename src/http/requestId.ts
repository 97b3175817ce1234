// Gives every request an id (the caller's X-Request-Id when it is a sane token, else a new UUID), echoes it,
// puts it on every log line of the request and in error bodies, and logs one line per request (see below for which level).
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { inRequestScope, type Logger } from '../logging.ts';

/** Letters, digits and the punctuation of common id formats (UUIDs, ULIDs, trace ids), 1 to 128 of them. */
const SANE_ID = /^[A-Za-z0-9._:@+=\/-]{1,128}$/;
/** Answers slower than this are logged at info level whatever their status. */
const SLOW_REQUEST_MS = 1_000;

export const requestIdOf = (ctx: Context): string | undefined => ctx.state.requestId as string | undefined;

/** The caller's X-Request-Id when it is a sane token, else a new UUID. */
export const requestIdFor = (given: string | undefined): string => (given && SANE_ID.test(given) ? given : randomUUID());

/** A request's line once answered. */
export interface AnsweredLine {
  request_id: string;
  method: string | undefined;
  path: string;
  status: number;
  duration_ms: number;
}

/**
 * Refusals, failures and slow answers at info; the rest at debug, since a line per request would cost the busiest
 * routes more than everything else this middleware does (LOG_LEVEL=debug shows them all).
 */
export function logAnswered(logger: Logger, line: AnsweredLine): void {
  if (line.status >= 400 || line.duration_ms >= SLOW_REQUEST_MS) logger.info(line, 'request');
  else logger.debug(line, 'request');
}

export function requestId(logger: Logger) {
  return async function identifyRequest(ctx: Context, next: Next) {
    const id = requestIdFor(ctx.get('X-Request-Id'));
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = performance.now();
    logger.debug({ request_id: id, method: ctx.method, path: ctx.path }, 'request started');
    try {
      await inRequestScope(id, next);
    } finally {
      // The query is left out: it may carry what a caller would not want in logs.
      logAnswered(logger, { request_id: id, method: ctx.method, path: ctx.path, status: ctx.status, duration_ms: Math.round(performance.now() - started) });
    }
  };
}
