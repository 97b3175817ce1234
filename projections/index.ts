// Every projection of the service, by name.
import { contentItemsProjection } from './contentItems.ts';
import { organizationsProjection } from './organizations.ts';
import type { Projection } from './projection.ts';
import { projectsProjection } from './projects.ts';
import { webhooksProjection } from './webhooks.ts';
import { adsProjection } from './ads.ts';
import { accessTiersProjection } from './accessTiers.ts';
import { playlistsProjection } from './playlists.ts';
import { podcastsProjection } from './podcasts.ts';

export const allProjections: Projection[] = [organizationsProjection, projectsProjection, contentItemsProjection, webhooksProjection, adsProjection, accessTiersProjection, playlistsProjection, podcastsProjection];
