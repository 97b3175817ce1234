// The /v1 pronunciation rule routes: list, create, get, update, delete (organization keys).
import type { Capability } from '../http/capability.ts';
import { organizationResourceRoutes } from '../http/resourceRoutes.ts';
import { ruleActions } from './actions.ts';

export const pronunciationCapability: Capability = { routes: (router, services) => organizationResourceRoutes(router, 'rules', ruleActions(services)) };
