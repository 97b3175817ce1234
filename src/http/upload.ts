// Receives a multipart/form-data upload: one audio `file` streamed straight to a file of ours under the media folder
// (never whole in memory), within the size limit, and the text fields beside it. Background tracks and content items
// are created this way.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import { AppError, invalid } from '../shared/errors.ts';
import { MAX_MULTIPART_OVERHEAD, multipartParser } from './multipart.ts';

export interface UploadForm {
  /** The folder under the media folder the file is kept in. */
  folder: string;
  /** The text fields read; others are ignored. */
  fields: ReadonlySet<string>;
  /** The longest value of a text field, in bytes. */
  fieldBytes: number;
  /** The largest file, in bytes (413 above). */
  maxBytes: number;
}

export interface ReceivedUpload {
  /** The text fields sent, by name. */
  fields: Record<string, string>;
  /** Under the media folder, a name of ours without an extension: the client's name is never used. */
  file: string;
}

/** The upload kept under `mediaDir`, or the 4xx that says what is wrong with the body; nothing is kept on failure. */
export async function receiveUpload(ctx: Context, mediaDir: string, form: UploadForm): Promise<ReceivedUpload> {
  const { maxBytes } = form;
  const bound = maxBytes + MAX_MULTIPART_OVERHEAD + form.fields.size * form.fieldBytes;
  const limits = { files: 1, fileSize: maxBytes, fields: form.fields.size, fieldSize: form.fieldBytes, parts: form.fields.size + 1 };
  const parser = multipartParser(ctx, bound, limits, () => tooLarge(maxBytes));
  await mkdir(path.join(mediaDir, form.folder), { recursive: true });
  const fields: Record<string, string> = {};
  const cut: string[] = [];
  let received: Omit<ReceivedUpload, 'fields'> | undefined;
  let saving: Promise<void> | undefined;
  let truncated = false;
  parser.on('field', (name, value, info) => {
    if (!form.fields.has(name)) return;
    if (info.valueTruncated) cut.push(name);
    else fields[name] = value;
  });
  parser.on('file', (name, stream) => {
    if (name !== 'file' || received) return void stream.resume();
    received = { file: `${form.folder}/${randomUUID()}` };
    stream.on('limit', () => (truncated = true));
    saving = pipeline(stream, createWriteStream(path.join(mediaDir, received.file)));
    saving.catch(() => undefined);
  });
  try {
    await pipeline(ctx.req, parser);
    await saving;
  } catch (error) {
    await discard(mediaDir, received);
    throw new AppError('BadRequest', `Malformed multipart body: ${(error as Error).message}`);
  }
  if (truncated) {
    await discard(mediaDir, received);
    throw tooLarge(maxBytes);
  }
  if (cut.length > 0) {
    await discard(mediaDir, received);
    throw invalid(cut.map((location) => ({ location, message: `must have at most ${form.fieldBytes} bytes` })));
  }
  if (!received) throw invalid([{ location: 'file', message: 'is required: the audio, as a multipart file part named "file"' }]);
  return { fields, ...received };
}

/** Removes an upload's file (under `mediaDir`), if there is one. */
export const discard = (mediaDir: string, upload: Pick<ReceivedUpload, 'file'> | undefined) =>
  upload ? rm(path.join(mediaDir, upload.file), { force: true }) : Promise.resolve();

const tooLarge = (maxBytes: number) => new AppError('TooLarge', `Request body too large: the file may have at most ${maxBytes} bytes`);
