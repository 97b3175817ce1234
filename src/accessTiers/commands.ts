// What clients may send to create or update an access tier, as zod schemas of the wire format (snake_case).
import { z } from 'zod';

const fields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).nullable(),
};

export const createAccessTierSchema = z.object({ ...fields, description: fields.description.default(null) });
export const updateAccessTierSchema = z.object(fields).partial();

export type AccessTierWireFields = z.infer<typeof createAccessTierSchema>;
