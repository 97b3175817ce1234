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
import { pronunciationRulesProjection } from './pronunciationRules.ts';
import { speakersProjection } from './speakers.ts';
import { customVoicesProjection } from './voices.ts';
import { videoTemplatesProjection } from './videoTemplates.ts';
import { backgroundTracksProjection } from './backgroundTracks.ts';
import { cmsIntegrationsProjection } from './cmsIntegrations.ts';
import { contentFiltersProjection } from './contentFilters.ts';
import { feedImportsProjection } from './feedImports.ts';
import { summaryTemplatesProjection } from './summaryTemplates.ts';
import { summarizationSettingsProjection } from './summarizationSettings.ts';

export const allProjections: Projection[] = [organizationsProjection, projectsProjection, contentItemsProjection, webhooksProjection, adsProjection, accessTiersProjection, playlistsProjection, podcastsProjection, pronunciationRulesProjection, speakersProjection, customVoicesProjection, videoTemplatesProjection, backgroundTracksProjection, contentFiltersProjection, cmsIntegrationsProjection, feedImportsProjection, summaryTemplatesProjection, summarizationSettingsProjection];
