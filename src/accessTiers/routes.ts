// The /v1 access tier routes: list, create, get, update (tiers are not deleted: content may name them).
import type Router from '@koa/router';
import { projectResourceRoutes } from '../http/resourceRoutes.ts';
import { accessTierActions, type AccessTierActions } from './actions.ts';
import type { Capability } from '../http/capability.ts';

export function accessTierRoutes(router: Router, accessTiers: AccessTierActions) {
  projectResourceRoutes(router, 'access_tiers', accessTiers);
}

export const accessTierCapability: Capability = { routes: (router, services) => accessTierRoutes(router, accessTierActions(services)) };
