// Access tier use cases of the REST routes; answers are wire-shaped.
import type { Services } from '../services.ts';
import { accessTiersProjection } from '../../projections/accessTiers.ts';
import { accessTierStream } from './events.ts';
import { projectResourceActions } from '../shared/crud/actions.ts';
import { ACCESS_TIERS } from './readModel.ts';
import { accessTierToWire } from './wire.ts';

export type AccessTierActions = ReturnType<typeof accessTierActions>;

export const accessTierActions = (services: Services) =>
  projectResourceActions(services, { collection: ACCESS_TIERS, projection: accessTiersProjection, stream: accessTierStream, toWire: accessTierToWire }, services.accessTiers);
