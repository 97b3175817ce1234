// The start every multipart/form-data route shares: a body announced past its bound is refused before it is read, and
// a busboy parser is made for the rest, a malformed header being the client's mistake (400).
import busboy from 'busboy';
import type { Context } from 'koa';
import { AppError } from '../shared/errors.ts';

/** Room for the text fields and part headers around the files. */
export const MAX_MULTIPART_OVERHEAD = 64 * 1024;

/**
 * A parser for the request's body, or `tooLarge()` thrown when its Content-Length already passes `bound`; what the
 * client is still sending is then read and dropped, so it reads the answer (as for JSON bodies, src/http/limits.ts).
 */
export function multipartParser(ctx: Context, bound: number, limits: busboy.Limits, tooLarge: () => AppError): busboy.Busboy {
  if (Number(ctx.get('content-length')) > bound) {
    dropBody(ctx);
    throw tooLarge();
  }
  try {
    return busboy({ headers: ctx.req.headers, limits });
  } catch (error) {
    throw new AppError('BadRequest', `Malformed multipart body: ${(error as Error).message}`);
  }
}

/** What the client is still sending is read and dropped, so that it reads the answer given before its body was read. */
export function dropBody(ctx: Context) {
  ctx.res.shouldKeepAlive = true;
  ctx.req.resume();
}
