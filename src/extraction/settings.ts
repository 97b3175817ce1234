// A project's content extraction settings: how the page of an item created from a `source_url` is read.
import { z } from 'zod';
import type { CamelKeys } from '../shared/caseMapping.ts';

export const extractionModes = ['automatic', 'manual', 'legacy'] as const;
export type ExtractionMode = (typeof extractionModes)[number];

export const MAX_REQUEST_HEADERS = 20;
const MAX_HEADER_VALUE = 2048;
/** A header name as HTTP allows it (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible characters, spaces and tabs; no line breaks (which would smuggle a header in). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Headers the fetcher sets itself or that belong to one connection: a project cannot choose them. */
const REFUSED_HEADERS = new Set([
  'host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade',
  'content-length', 'expect', 'proxy-authorization', 'proxy-authenticate',
]);

export const requestHeadersSchema = z
  .record(z.string(), z.string().max(MAX_HEADER_VALUE, `a value may have at most ${MAX_HEADER_VALUE} characters`))
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_REQUEST_HEADERS) ctx.addIssue({ code: 'custom', message: `may name at most ${MAX_REQUEST_HEADERS} headers` });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      if (name.length === 0 || name.length > 256 || !TOKEN.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'is not a valid HTTP header name' });
      else if (REFUSED_HEADERS.has(lower)) ctx.addIssue({ code: 'custom', path: [name], message: 'is set by the service itself and cannot be chosen' });
      else if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: [name], message: 'is named twice (header names ignore case)' });
      seen.add(lower);
      if (!FIELD_VALUE.test(headers[name]!) || headers[name] !== headers[name]!.trim()) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'is not a valid HTTP header value (no line breaks or control characters, no leading or trailing spaces)' });
      }
    }
  });

export const extractionSettingsSchema = z
  .object({
    /** `automatic`: a readability algorithm finds the article; `manual`: the project's include filters alone; `legacy`: filters and simple heuristics. */
    mode: z.enum(extractionModes),
    /** Renders the page in a headless browser before extracting (single-page applications). */
    javascript_enabled: z.boolean(),
    /** Pages are fetched from the service's static egress address (an egress setting of the deployment; see docs/intake.md). */
    static_ip_enabled: z.boolean(),
    /** Sent with every request for a page; replaces the whole set when given. */
    request_headers: requestHeadersSchema,
  })
  .partial();

export type ExtractionSettingsChanges = CamelKeys<z.infer<typeof extractionSettingsSchema>>;
export type ExtractionSettings = Required<ExtractionSettingsChanges>;

export const defaultExtractionSettings: ExtractionSettings = { mode: 'automatic', javascriptEnabled: false, staticIpEnabled: false, requestHeaders: {} };
