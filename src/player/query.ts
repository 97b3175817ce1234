// What a player-data request asks for: the identifiers in its path and the options in its query string.
import { z } from 'zod';
import { AppError, invalid, type FieldError } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { queryBoolean } from '../shared/wireSchemas.ts';

const identifierKinds = ['content_id', 'source_id', 'source_url', 'playlist_id'] as const;
/** `first_playlist` is the playlist route without an id: the project's first playlist. */
type IdentifierKind = (typeof identifierKinds)[number] | 'first_playlist';
export interface Identifier {
  kind: IdentifierKind;
  value: string;
}

/** The single-identifier routes, by path segment. */
export const lookupRoutes: Record<string, IdentifierKind> = {
  by_content_id: 'content_id',
  by_source_id: 'source_id',
  by_source_url: 'source_url',
  by_playlist_id: 'playlist_id',
};

const MAX_IDENTIFIERS = 100;

export const querySchema = z.object({
  preview_token: z.string().max(200).optional(),
  words: queryBoolean.default(false),
  summary: queryBoolean.default(false),
  media_format: z.enum(['audio', 'video']).optional(),
  access_tier: z.string().trim().min(1).max(100).optional(),
  video_size: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .optional()
    .describe("Videos of this size: a size's name (`square`), `WxH` (`1080x1080`) or a ratio (`1:1`, `16:9`); all videos when none is of it"),
  initial_content_id: z.string().max(255).optional(),
  initial_source_id: z.string().max(255).optional(),
  initial_source_url: z.string().max(2048).optional(),
});
export type PlayerQuery = z.infer<typeof querySchema>;

export interface FrameSize {
  name: string;
  width: number;
  height: number;
}

/**
 * Which frame sizes `video_size` asks for: a size's name (`square`, any case), `WxH` (`1080x1080`), or a ratio
 * (`1:1`, `16:9`, `9:16`; the web player sends ratios, its `videoSizes: ["square"]` asks for `1:1`), within 1 %.
 * Without `video_size`, every size.
 */
export function videoSizeMatcher(asked: string | undefined): (size: FrameSize) => boolean {
  if (asked === undefined) return () => true;
  const name = asked.toLowerCase();
  const pixels = /^(\d{1,5})x(\d{1,5})$/i.exec(asked);
  const ratio = /^(\d{1,5}(?:\.\d{1,4})?):(\d{1,5}(?:\.\d{1,4})?)$/.exec(asked);
  return (size) => {
    if (size.name.toLowerCase() === name) return true;
    if (pixels) return size.width === Number(pixels[1]) && size.height === Number(pixels[2]);
    if (!ratio || Number(ratio[2]) === 0) return false;
    const wanted = Number(ratio[1]) / Number(ratio[2]);
    return Math.abs(size.width / size.height - wanted) <= wanted * 0.01;
  };
}

/** Unknown parameters (cache busters, `preview_page`) are left out, so they neither fail nor split the answer cache. */
export const parsePlayerQuery = (raw: Record<string, unknown>): PlayerQuery => parseOrThrow(querySchema, raw, 'Invalid query parameters');

const SHAPE = `must be an object with one of ${identifierKinds.join(', ')}, a string or a positive integer`;

/** `by_identifiers/{JSON array}`, already URL-decoded: `[{"content_id": ...}, {"source_url": ...}, ...]`. */
export function parseIdentifiers(json: string): Identifier[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new AppError('BadRequest', 'Malformed JSON in identifiers');
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_IDENTIFIERS) {
    throw invalid([{ location: 'identifiers', message: `must be a JSON array of 1 to ${MAX_IDENTIFIERS} identifiers` }], 'Invalid identifiers');
  }
  const errors: FieldError[] = [];
  const identifiers = parsed.flatMap((entry: unknown, index) => {
    const identifier = identifierOf(entry);
    if (!identifier) errors.push({ location: `identifiers.${index}`, message: SHAPE });
    return identifier ? [identifier] : [];
  });
  if (errors.length > 0) throw invalid(errors, 'Invalid identifiers');
  return identifiers;
}

function identifierOf(entry: unknown): Identifier | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return null;
  const fields = Object.entries(entry);
  if (fields.length !== 1) return null;
  const [kind, value] = fields[0]!;
  if (!(identifierKinds as readonly string[]).includes(kind)) return null;
  const text = typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? String(value) : value;
  return typeof text === 'string' && text.length > 0 && text.length <= 2048 ? { kind: kind as IdentifierKind, value: text } : null;
}
