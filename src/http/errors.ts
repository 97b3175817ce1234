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

/** The request id (src/http/requestId.ts) lets a caller's report be matched with the service's log lines. */
export const sendError = (ctx: Context, status: number, message: string, errors?: unknown[]) => {
  ctx.status = status;
  const requestId = ctx.state.requestId as string | undefined;
  ctx.body = { code: status, message, ...(errors ? { errors } : {}), ...(requestId ? { request_id: requestId } : {}) };
};

export function errorHandler(log: (message: string) => void) {
  return async function handleErrors(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) sendError(ctx, 404, 'Not Found');
    } catch (error) {
      if (error instanceof AppError) {
        sendError(ctx, httpStatusOf[error.kind], error.message, error.kind === 'Invalid' ? error.errors : undefined);
        return;
      }
      if (isStorageFull(error)) {
        // Nothing was written (the store's transaction rolled back): the client may retry once there is room.
        log(`disk full on ${ctx.method} ${ctx.path}: ${error instanceof Error ? error.message : String(error)}`);
        sendError(ctx, 507, reasons[507]!);
        return;
      }
      if (failureKind(error) === 'unavailable') {
        // A store or server the service depends on is away: nothing about the request is wrong, so it may be retried.
        log(`store unavailable on ${ctx.method} ${ctx.path}: ${error instanceof Error ? error.message : String(error)}`);
        ctx.set('Retry-After', '5');
        sendError(ctx, 503, reasons[503]!);
        return;
      }
      if (error instanceof URIError) {
        sendError(ctx, 400, 'Malformed percent-encoding');
        return;
      }
      const status = clientStatusOf(error);
      if (status) {
        const parseFailure = status === 400 && error instanceof SyntaxError;
        sendError(ctx, status, parseFailure ? 'Malformed JSON' : (reasons[status] ?? 'Bad Request'));
        return;
      }
      log(`error on ${ctx.method} ${ctx.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      sendError(ctx, 500, 'Internal Server Error');
    }
  };
}

/** Body-parser and Koa errors carry a 4xx status when the client caused them. */
function clientStatusOf(error: unknown): number | null {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}
