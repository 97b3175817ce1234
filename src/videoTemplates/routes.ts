// The /v1 video settings template routes: list, create, get, update, delete.
import type { Capability } from '../http/capability.ts';
import { organizationResourceRoutes } from '../http/resourceRoutes.ts';
import { videoTemplateActions } from './actions.ts';

export const videoTemplateCapability: Capability = {
  routes: (router, services) => organizationResourceRoutes(router, 'video_settings_templates', videoTemplateActions(services)),
};
