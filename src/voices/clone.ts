// Voice cloning's body: clients send recordings as a multipart/form-data body (`files`, `name`, ...). None of the
// installed engines clones voices, so the body is read to its end and dropped (nothing is kept), within the size
// an uploaded audio file may have, and the answer says at `files` that cloning is not available.
import type { Context } from 'koa';
import { MAX_MULTIPART_OVERHEAD, multipartParser } from '../http/multipart.ts';
import { AppError } from '../shared/errors.ts';

/** As many recordings as a clone request usually carries, and a few more. */
const MAX_FILES = 25;

/** Reads a multipart body and drops it; a malformed one is 400, one past the size bound 413 (as for uploads). */
export async function dropMultipartBody(ctx: Context, maxBytes: number): Promise<void> {
  const bound = maxBytes * MAX_FILES + MAX_MULTIPART_OVERHEAD;
  const tooLarge = () => new AppError('TooLarge', `Request body too large: at most ${bound} bytes`);
  const parser = multipartParser(ctx, bound, { files: MAX_FILES, fileSize: maxBytes, fields: 100, fieldSize: 1_000 }, tooLarge);
  let received = 0;
  let over = false;
  ctx.req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > bound) over = true;
  });
  parser.on('file', (_name, stream) => {
    stream.on('limit', () => (over = true));
    // A body cut short fails the file part too: the parser's error answers it, and an unheard one would end the process.
    stream.on('error', () => undefined);
    stream.resume();
  });
  // Not a pipeline: one would destroy the request, and with it the connection the 400 goes out on.
  const failure = await new Promise<Error | null>((resolve) => {
    parser.once('close', () => resolve(null));
    // `on`, not `once`: busboy may report a malformed body more than once, and an unheard report ends the process.
    parser.on('error', (error: Error) => {
      ctx.req.unpipe(parser);
      ctx.req.resume();
      resolve(error);
    });
    ctx.req.pipe(parser);
  });
  if (failure) throw new AppError('BadRequest', `Malformed multipart body: ${failure.message}`);
  if (over) throw tooLarge();
}
