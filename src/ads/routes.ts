// The /v1 ad routes: list, create, get, update, delete.
import type Router from '@koa/router';
import { projectResourceRoutes } from '../http/resourceRoutes.ts';
import type { AdActions } from './actions.ts';

export function adRoutes(router: Router, ads: AdActions) {
  projectResourceRoutes(router, 'ads', ads);
}
