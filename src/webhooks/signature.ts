// Standard Webhooks signing: a per-webhook secret, and an HMAC-SHA256 over `id.timestamp.body`.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** `whsec_` and 24 random bytes in base64, shown to the client once. */
export const newSecret = () => `${PREFIX}${randomBytes(24).toString('base64')}`;

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of the Standard Webhooks specification; the timestamp is in unix seconds. */
export function signatureHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(secret, id, timestamp, body) };
}
