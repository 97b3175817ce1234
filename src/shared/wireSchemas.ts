// zod building blocks shared by the request schemas of several capabilities.
import { z } from 'zod';

export const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);
export const languageCode = z.string().max(10).regex(/^[a-z]{2}(_[A-Z]{2})?$/);
export const positiveId = z.number().int().min(1);
export const cssColor = z.string().trim().min(1).max(100);
export const cropCoordinates = z
  .object({ '16:9': z.array(z.number()).max(4).optional(), '9:16': z.array(z.number()).max(4).optional() })
  .nullable();

/** Query-string booleans: `true`/`false`/`1`/`0`. */
export const queryBoolean = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .refine((value) => /^\d{1,12}$/.test(value), 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    // The refinement is invisible to JSON Schema: the OpenAPI document states it as a pattern.
    .meta({ pattern: '^\\d{1,12}$', description: `A whole number from ${min} to ${max}` });

const ISO_DATE_OR_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A date (`yyyy-mm-dd`, midnight UTC) or date-time in a query string, normalised to UTC ISO. */
export const queryDateTime = z
  .string()
  .refine((value) => ISO_DATE_OR_DATETIME.test(value) && !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 date-time')
  .transform((value) => new Date(value).toISOString());

const MAX_HEADERS = 20;
/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Visible ASCII, spaces and tabs: nothing that could end the header line. */
const HEADER_VALUE = /^[\t\x20-\x7e]{0,4096}$/;

/**
 * Headers a client chooses to have sent with outgoing requests (webhook deliveries, feed fetches): at most 20, valid
 * names, each once (case-insensitive), values that cannot end the header line, none that `reserved` (given the lower-case
 * name) keeps for the service, which is then refused with `reservedMessage`.
 */
export const chosenHeaders = (reserved: (lowerName: string) => boolean, reservedMessage: string) =>
  z.record(z.string(), z.string()).superRefine((value, ctx) => {
    const entries = Object.entries(value);
    if (entries.length > MAX_HEADERS) ctx.addIssue({ code: 'custom', path: [], message: `must have at most ${MAX_HEADERS} headers` });
    const seen = new Set<string>();
    for (const [name, text] of entries) {
      const lower = name.toLowerCase();
      const problem = !HEADER_NAME.test(name)
        ? "is not a valid header name (letters, digits and !#$%&'*+.^_`|~- only, at most 100)"
        : reserved(lower)
          ? reservedMessage
          : seen.has(lower)
            ? 'repeats another header (names are case-insensitive)'
            : !HEADER_VALUE.test(text)
              ? 'must be printable text without line breaks, at most 4096 characters'
              : null;
      if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
      seen.add(lower);
    }
  });
