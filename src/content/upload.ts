// `POST /projects/{p}/content/upload`: an `audio_upload` item from an uploaded recording. The form's text fields are the
// create fields of an `audio_upload` item; each is read as the schema expects it (text where it takes text, else JSON:
// `published=true`, `tags=["a","b"]`, `metadata={"k":"v"}`), so the one schema judges them as it judges a JSON body.
import type { z } from 'zod';
import { tooDeepAt, valueProblems } from '../http/jsonScan.ts';
import { MAX_FREE_FORM_ENTRIES, MAX_JSON_DEPTH } from '../http/limits.ts';
import { invalid } from '../shared/errors.ts';
import type { UploadForm } from '../http/upload.ts';
import { uploadContentSchema } from './commands.ts';

/** Where uploaded recordings are kept, under the media folder, which serves them at the item's `audio_url`. */
export const CONTENT_UPLOADS = 'uploads';

const shape = uploadContentSchema.shape as Record<string, z.ZodType>;

/** Fields that take no text (flags, numbers, lists, objects): a form sends them as JSON (the OpenAPI form's encoding). */
export const jsonFormFields = Object.keys(shape).filter((name) => !shape[name]!.safeParse('').success);

/** The fields read beside `file`; `type` may be sent, as `audio_upload` only. */
export const uploadForm = (maxBytes: number): UploadForm => ({
  folder: CONTENT_UPLOADS,
  fields: new Set([...Object.keys(shape), 'type']),
  // A summary of 2,000 characters, or a metadata object, with room to spare.
  fieldBytes: 32 * 1024,
  maxBytes,
});

/**
 * The JSON body the form stands for, for the upload schema to judge, with the checks every JSON body gets at the gate
 * (src/http/limits.ts): nesting depth, NUL characters and lone surrogates, `__proto__` keys, huge free-form objects.
 */
export function formBody(fields: Record<string, string>): Record<string, unknown> {
  const { type, ...rest } = fields;
  if (type !== undefined && type !== 'audio_upload') throw invalid([{ location: 'type', message: 'must be audio_upload (or left out) for an upload' }]);
  const body = Object.fromEntries(Object.entries(rest).map(([name, text]) => [name, valueOf(name, text)]));
  const problems = valueProblems(body, MAX_FREE_FORM_ENTRIES);
  if (problems.length > 0) throw invalid(problems);
  return body;
}

/** The text itself where the field takes it, else the text read as JSON (left as text when it is not JSON, for the schema's message). */
function valueOf(name: string, text: string): unknown {
  if (shape[name]!.safeParse(text).success) return text;
  const deep = tooDeepAt(text, MAX_JSON_DEPTH);
  if (deep) throw invalid([{ location: `${name}.${deep}`, message: `must not nest more than ${MAX_JSON_DEPTH} levels deep` }]);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
