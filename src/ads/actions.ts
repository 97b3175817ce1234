// Ad use cases of the REST routes; answers are wire-shaped.
import type { Services } from '../services.ts';
import { adsProjection } from '../../projections/ads.ts';
import { adStream } from './events.ts';
import { projectResourceActions } from '../shared/crud/actions.ts';
import { ADS } from './readModel.ts';
import { adToWire } from './wire.ts';

export type AdActions = ReturnType<typeof adActions>;

export const adActions = (services: Services) => projectResourceActions(services, { collection: ADS, projection: adsProjection, stream: adStream, toWire: adToWire }, services.ads);
