// The /v1 background track routes: list, create, get, update, delete.
import type { Capability } from '../http/capability.ts';
import { organizationResourceRoutes } from '../http/resourceRoutes.ts';
import { backgroundTrackActions } from './actions.ts';

export const backgroundTrackCapability: Capability = {
  routes: (router, services) => organizationResourceRoutes(router, 'background_tracks', backgroundTrackActions(services, services.audioLimits)),
};
