// The error body every failure answers with, as a zod schema: the source of its OpenAPI component.
import { z } from 'zod';

export const fieldErrorWire = z
  .object({ location: z.string().describe('Path of the field, dot-separated (`segments.0.text`), or `body`'), message: z.string() })
  .meta({ id: 'FieldError' });

export const errorWire = z
  .object({
    code: z.number().int().min(400).max(599).describe('The HTTP status'),
    message: z.string(),
    errors: z.array(fieldErrorWire).optional().describe('One entry per invalid field (validation failures only)'),
    request_id: z.string().optional().describe('Id of the request, as in the logs'),
  })
  .meta({ id: 'Error', description: 'Every failure answers with this body.' });

export type ErrorWire = z.infer<typeof errorWire>;
