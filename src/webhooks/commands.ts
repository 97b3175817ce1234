// What clients may send to create or update a webhook, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { urlProblem } from './addresses.ts';

const MAX_HEADERS = 20;

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Visible ASCII, spaces and tabs: nothing that could end the header line. */
const HEADER_VALUE = /^[\t\x20-\x7e]{0,4096}$/;

/** Headers the service sets itself, or that would break the request or its signature. */
const reservedHeaders = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);
const isReserved = (name: string) => reservedHeaders.has(name) || name.startsWith('webhook-') || name.startsWith('proxy-');

const headers = z.record(z.string(), z.string()).superRefine((value, ctx) => {
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) ctx.addIssue({ code: 'custom', path: [], message: `must have at most ${MAX_HEADERS} headers` });
  const seen = new Set<string>();
  for (const [name, text] of entries) {
    const lower = name.toLowerCase();
    const problem = !HEADER_NAME.test(name)
      ? 'is not a valid header name (letters, digits and !#$%&\'*+.^_`|~- only, at most 100)'
      : isReserved(lower)
        ? 'is reserved: the service sets it'
        : seen.has(lower)
          ? 'repeats another header (names are case-insensitive)'
          : !HEADER_VALUE.test(text)
            ? 'must be printable text without line breaks, at most 4096 characters'
            : null;
    if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
    seen.add(lower);
  }
});

/** The schemas depend on whether private destinations are allowed (WEBHOOKS_ALLOW_PRIVATE). */
export function webhookSchemas(allowPrivate: boolean) {
  const url = z
    .string()
    .trim()
    .max(2048)
    .superRefine((value, ctx) => {
      const problem = urlProblem(value, allowPrivate);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
  const fields = { url, enabled: z.boolean(), use_static_ip: z.boolean(), headers };
  return {
    create: z.object({ ...fields, enabled: fields.enabled.default(true), use_static_ip: fields.use_static_ip.default(false), headers: fields.headers.default({}) }),
    update: z.object(fields).partial(),
  };
}

export type WebhookWireFields = z.infer<ReturnType<typeof webhookSchemas>['create']>;
