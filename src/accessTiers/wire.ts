// The one mapping from the access tier read model to the wire format.
import type { AccessTierView } from './readModel.ts';

export const accessTierToWire = (tier: AccessTierView) => ({
  id: tier.id,
  name: tier.name,
  description: tier.description,
  created: tier.created,
  updated: tier.updated,
});
