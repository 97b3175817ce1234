// Maps every failure to the error shape {code, message[, errors]}; client mistakes never become a 500.
import type { Context, Next } from 'koa';
import { AppError, httpStatusOf } from '../shared/errors.ts';
import { isStorageFull } from '../shared/storageFull.ts';
import { failureKind } from '../shared/failures.ts';

const reasons: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Request body too large',
  415: 'Unsupported Media Type',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/** The error shape; the request id (src/http/requestId.ts) lets a caller's report be matched with the service's log lines. */
export const errorBody = (status: number, message: string, errors?: unknown[], requestId?: string) => ({
  code: status,
  message,
  ...(errors ? { errors } : {}),
  ...(requestId ? { request_id: requestId } : {}),
});

export const sendError = (ctx: Context, status: number, message: string, errors?: unknown[]) => {
  ctx.status = status;
  ctx.body = errorBody(status, message, errors, ctx.state.requestId as string | undefined);
};

/** How a failure is answered: its status, message, field errors and headers. */
export interface FailureAnswer {
  status: number;
  message: string;
  errors?: unknown[];
  headers?: Record<string, string>;
}

/**
 * The answer to a failure while handling `request` (its method and path, for the log): client mistakes get their 4xx,
 * a full disk 507, a store that is away 503, anything else 500, logged with its stack.
 */
export function answerToFailure(error: unknown, log: (message: string) => void, request: string): FailureAnswer {
  if (error instanceof AppError) return { status: httpStatusOf[error.kind], message: error.message, errors: error.kind === 'Invalid' ? error.errors : undefined };
  if (isStorageFull(error)) {
    // Nothing was written (the store's transaction rolled back): the client may retry once there is room.
    log(`disk full on ${request}: ${error instanceof Error ? error.message : String(error)}`);
    return { status: 507, message: reasons[507]! };
  }
  if (failureKind(error) === 'unavailable') {
    // A store or server the service depends on is away: nothing about the request is wrong, so it may be retried.
    log(`store unavailable on ${request}: ${error instanceof Error ? error.message : String(error)}`);
    return { status: 503, message: reasons[503]!, headers: { 'Retry-After': '5' } };
  }
  if (error instanceof URIError) return { status: 400, message: 'Malformed percent-encoding' };
  const status = clientStatusOf(error);
  if (status) {
    const parseFailure = status === 400 && error instanceof SyntaxError;
    return { status, message: parseFailure ? 'Malformed JSON' : (reasons[status] ?? 'Bad Request') };
  }
  log(`error on ${request}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return { status: 500, message: 'Internal Server Error' };
}

export function errorHandler(log: (message: string) => void) {
  return async function handleErrors(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) sendError(ctx, 404, 'Not Found');
    } catch (error) {
      const answer = answerToFailure(error, log, `${ctx.method} ${ctx.path}`);
      if (answer.headers) ctx.set(answer.headers);
      sendError(ctx, answer.status, answer.message, answer.errors);
    }
  };
}

/** Body-parser and Koa errors carry a 4xx status when the client caused them. */
function clientStatusOf(error: unknown): number | null {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}
