// The access tier's wire format: its zod schema, the source of the OpenAPI document, and the one mapping from the read model.
import { z } from 'zod';
import { timestamp } from '../shared/wireResponses.ts';
import type { AccessTierView } from './readModel.ts';

export const accessTierWire = z
  .object({ id: z.number().int().min(1), name: z.string(), description: z.string().nullable(), created: timestamp, updated: timestamp })
  .meta({ id: 'AccessTier' });
export type AccessTierWire = z.infer<typeof accessTierWire>;

export const accessTierToWire = (tier: AccessTierView): AccessTierWire => ({
  id: tier.id,
  name: tier.name,
  description: tier.description,
  created: tier.created,
  updated: tier.updated,
});
