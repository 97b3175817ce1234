// Every projection of the service, by name.
import { contentItemsProjection } from './contentItems.ts';
import { organizationsProjection } from './organizations.ts';
import type { Projection } from './projection.ts';
import { projectsProjection } from './projects.ts';
import { webhooksProjection } from './webhooks.ts';

export const allProjections: Projection[] = [organizationsProjection, projectsProjection, contentItemsProjection, webhooksProjection];
