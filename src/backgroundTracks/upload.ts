// A track created by uploading its audio: a multipart/form-data body with `file` and `name` (and optionally `volume`
// and `project_id`), read here within the audio size limit, straight to a file in the media folder.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import { MAX_MULTIPART_OVERHEAD, multipartParser } from '../http/multipart.ts';
import { AppError, invalid } from '../shared/errors.ts';

/** Where uploads are kept, under the media folder, so the track's `url` serves them. */
export const UPLOADS = 'background_tracks';
const TEXT_FIELDS = new Set(['name', 'volume', 'project_id']);
const MAX_FIELD_BYTES = 1_000;

export interface ReceivedUpload {
  /** The body the JSON route would have had, without `url`. */
  fields: Record<string, string>;
  /** Under the media folder, a name of ours without an extension: the client's name is never used. */
  file: string;
}

/** The upload kept under `mediaDir`, or the 4xx that says what is wrong with the body; nothing is kept on failure. */
export async function receiveUpload(ctx: Context, mediaDir: string, maxBytes: number): Promise<ReceivedUpload> {
  const parser = multipartParser(ctx, maxBytes + MAX_MULTIPART_OVERHEAD, { files: 1, fileSize: maxBytes, fields: TEXT_FIELDS.size, fieldSize: MAX_FIELD_BYTES, parts: TEXT_FIELDS.size + 1 }, () => tooLarge(maxBytes));
  await mkdir(path.join(mediaDir, UPLOADS), { recursive: true });
  const fields: Record<string, string> = {};
  let received: Omit<ReceivedUpload, 'fields'> | undefined;
  let saving: Promise<void> | undefined;
  let truncated = false;
  parser.on('field', (name, value, info) => {
    if (TEXT_FIELDS.has(name) && !info.valueTruncated) fields[name] = value;
  });
  parser.on('file', (name, stream) => {
    if (name !== 'file') return void stream.resume();
    received = { file: `${UPLOADS}/${randomUUID()}` };
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
  if (!received) throw invalid([{ location: 'file', message: 'is required: the audio, as a multipart file part named "file"' }]);
  return { fields, ...received };
}

export const discard = (mediaDir: string, upload: Pick<ReceivedUpload, 'file'> | undefined) =>
  upload ? rm(path.join(mediaDir, upload.file), { force: true }) : Promise.resolve();

const tooLarge = (maxBytes: number) => new AppError('TooLarge', `Request body too large: the file may have at most ${maxBytes} bytes`);

/** The JSON body the upload stands for: `volume` and `project_id` as numbers where they are numbers, for the schema to judge. */
export function bodyOf(upload: ReceivedUpload, url: string): Record<string, unknown> {
  const { name, volume, project_id: projectId } = upload.fields;
  const number = (text: string) => (/^-?\d+$/.test(text.trim()) ? Number(text) : text);
  return {
    name,
    url,
    ...(volume !== undefined ? { volume: number(volume) } : {}),
    ...(projectId !== undefined ? { project: projectId === '' || projectId === 'null' ? null : { id: number(projectId) } } : {}),
  };
}
