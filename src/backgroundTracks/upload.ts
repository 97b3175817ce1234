// A track created by uploading its audio: a multipart/form-data body with `file` and `name` (and optionally `volume`
// and `project_id`), read here within the audio size limit, straight to a file in the media folder.
import type { Context } from 'koa';
import { receiveUpload as receive, type ReceivedUpload } from '../http/upload.ts';

/** Where uploads are kept, under the media folder, so the track's `url` serves them. */
export const UPLOADS = 'background_tracks';
const TEXT_FIELDS = new Set(['name', 'volume', 'project_id']);
const MAX_FIELD_BYTES = 1_000;

/** The upload kept under `mediaDir`, or the 4xx that says what is wrong with the body; nothing is kept on failure. */
export const receiveUpload = (ctx: Context, mediaDir: string, maxBytes: number) => receive(ctx, mediaDir, { folder: UPLOADS, fields: TEXT_FIELDS, fieldBytes: MAX_FIELD_BYTES, maxBytes });

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
