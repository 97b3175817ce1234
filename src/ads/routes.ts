// The /v1 ad routes: list, create, get, update, delete.
import type Router from '@koa/router';
import { projectResourceRoutes } from '../http/resourceRoutes.ts';
import { adActions, type AdActions } from './actions.ts';
import type { Capability } from '../http/capability.ts';

export function adRoutes(router: Router, ads: AdActions) {
  projectResourceRoutes(router, 'ads', ads);
}

export const adCapability: Capability = { routes: (router, services) => adRoutes(router, adActions(services)) };
