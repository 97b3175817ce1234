// The /v1 access tier routes: list, create, get, update (tiers are not deleted: content may name them).
import type Router from '@koa/router';
import { projectResourceRoutes } from '../http/resourceRoutes.ts';
import type { AccessTierActions } from './actions.ts';

export function accessTierRoutes(router: Router, accessTiers: AccessTierActions) {
  projectResourceRoutes(router, 'access_tiers', accessTiers);
}
