// The content filter's wire format: its zod schema, the source of the OpenAPI document, and its mapping.
import { z } from 'zod';
import { timestamp } from '../shared/wireResponses.ts';
import { contentFilterTypes } from './commands.ts';
import type { ContentFilterView } from './readModel.ts';

export const contentFilterWire = z
  .object({
    id: z.number().int().min(1),
    project: z.object({ id: z.number().int().min(1) }),
    type: z.enum(contentFilterTypes).describe('`include`: the article is what include filters match; `exclude`: what they match is left out'),
    selector: z.string().describe('A CSS selector'),
    enabled: z.boolean(),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'ContentFilter' });
export type ContentFilterWire = z.infer<typeof contentFilterWire>;

export function contentFilterToWire(filter: ContentFilterView): ContentFilterWire {
  return {
    id: filter.id,
    project: { id: filter.projectId },
    type: filter.type,
    selector: filter.selector,
    enabled: filter.enabled,
    created: filter.created,
    updated: filter.updated,
  };
}
