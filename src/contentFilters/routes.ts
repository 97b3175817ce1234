// The /v1 content filter routes: list, create, get, update, delete.
import type Router from '@koa/router';
import { projectResourceRoutes } from '../http/resourceRoutes.ts';
import type { Capability } from '../http/capability.ts';
import { contentFilterActions, type ContentFilterActions } from './actions.ts';

export function contentFilterRoutes(router: Router, filters: ContentFilterActions) {
  projectResourceRoutes(router, 'content_filters', filters);
}

export const contentFilterCapability: Capability = { routes: (router, services) => contentFilterRoutes(router, contentFilterActions(services)) };
