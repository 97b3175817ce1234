// What every operation of the OpenAPI document shares: the API key scheme, the error answers, JSON bodies and links.
import { OpenAPIRegistry, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorWire } from '../http/wire.ts';

export const API_KEY_SCHEME = 'ApiKey';

export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', API_KEY_SCHEME, {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'An organization key reaches every project of its organization; a project key reaches its own project.',
  });
  return registry;
}

const errorReasons = {
  400: 'Malformed request: JSON, URL encoding or text',
  401: 'Missing or unknown API key',
  403: 'A project key on an operation for organization keys',
  404: 'No such resource, or none this key may reach',
  409: 'Changed by another request at the same moment: try again',
  413: 'Body too large',
  415: 'Body is not `application/json`',
  422: 'Invalid parameters or body: one entry per field in `errors`',
  429: 'Too many requests: wait for `Retry-After` seconds',
  502: 'A service the request needed (the summarizer) failed or answered something unusable: nothing was changed',
  504: 'A service the request needed (the summarizer) did not answer in time: nothing was changed',
  507: 'Storage full: nothing was written',
} as const;
export type ErrorStatus = keyof typeof errorReasons;

export const json = (schema: z.ZodType, description: string): ResponseConfig => ({ description, content: { 'application/json': { schema } } });
export const text = (mediaType: string, description: string): ResponseConfig => ({
  description,
  content: { [mediaType]: { schema: z.string() } },
});
export const noContent = (description: string): ResponseConfig => ({ description });

/** The error answers of an operation; `default` says that any other failure has the same shape. */
export const errors = (...statuses: ErrorStatus[]): Record<string, ResponseConfig> => ({
  ...Object.fromEntries(statuses.map((status) => [status, json(errorWire, errorReasons[status])])),
  default: json(errorWire, 'Any other failure'),
});

/** Failures every operation with an API key can answer. */
const keyed: ErrorStatus[] = [400, 401, 404, 422, 429];
/** Failures of every operation that takes a JSON body and writes. */
const writing: ErrorStatus[] = [...keyed, 409, 413, 415, 507];

export const readErrors = () => errors(...keyed);
export const writeErrors = (...more: ErrorStatus[]) => errors(...writing, ...more);
/** Deletes and actions without a body still append events. */
export const actionErrors = (...more: ErrorStatus[]) => errors(...keyed, 409, 507, ...more);

export const jsonBody = (schema: z.ZodType, description?: string): NonNullable<RouteConfig['request']>['body'] => ({
  required: true,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
});

/** Every REST POST takes it (docs/api.md, Idempotency-Key): a retry with the same key and body answers the first answer again. */
export const idempotencyHeaders = z.object({
  'Idempotency-Key': z.string().min(1).max(255).optional().describe('Makes a retried POST act once: the same key and body answer the first answer again'),
});

/** Path parameters. Routes answer 404 (never 422) for an id that cannot exist. */
export const projectId = z.number().int().min(1).describe('Numeric project id');
export const numericId = z.number().int().min(1);

/** Links from a create answer to the operations on what it created, for clients and stateful testing. */
export const linksTo = (operations: Record<string, string>, parameters: Record<string, string>) =>
  Object.fromEntries(Object.entries(operations).map(([name, operationId]) => [name, { operationId, parameters }]));
