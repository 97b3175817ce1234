// What clients may send to create or update a webhook, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { chosenHeaders } from '../shared/wireSchemas.ts';
import { urlProblem } from './addresses.ts';

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

const headers = chosenHeaders(isReserved, 'is reserved: the service sets it');

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
