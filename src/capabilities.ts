// Every capability of the service, in the order their public handlers are tried.
import type { Capability } from './http/capability.ts';
import { mediaCapability } from './http/media.ts';
import { apiDocsCapability } from './openapi/routes.ts';
import { playerCapability } from './player/routes.ts';
import { podcastCapability } from './podcasts/routes.ts';
import { contentCapability } from './content/routes.ts';
import { projectCapability } from './projects/routes.ts';
import { voiceCapability } from './voices/routes.ts';
import { webhookCapability } from './webhooks/routes.ts';
import { adCapability } from './ads/routes.ts';
import { accessTierCapability } from './accessTiers/routes.ts';
import { playlistCapability } from './playlists/routes.ts';
import { pronunciationCapability } from './pronunciation/routes.ts';
import { speakerCapability } from './speakers/routes.ts';
import { videoTemplateCapability } from './videoTemplates/routes.ts';
import { backgroundTrackCapability } from './backgroundTracks/routes.ts';
import { videoPreviewCapability } from './video/routes.ts';
import { cmsIntegrationCapability } from './cmsIntegration/routes.ts';
import { contentFilterCapability } from './contentFilters/routes.ts';
import { feedImportCapability } from './feedImports/routes.ts';
import { summaryCapability } from './summaries/routes.ts';
import { analyticsCapability } from './analytics/routes.ts';
import { dashboardCapability } from './dashboard/page.ts';

export const capabilities: Capability[] = [
  mediaCapability,
  apiDocsCapability,
  playerCapability,
  podcastCapability,
  // Its paths end in `analytics` where other capabilities' paths take an `{id}`: it comes first.
  analyticsCapability,
  contentCapability,
  projectCapability,
  voiceCapability,
  webhookCapability,
  adCapability,
  accessTierCapability,
  playlistCapability,
  pronunciationCapability,
  speakerCapability,
  videoTemplateCapability,
  backgroundTrackCapability,
  videoPreviewCapability,
  cmsIntegrationCapability,
  contentFilterCapability,
  feedImportCapability,
  summaryCapability,
  dashboardCapability,
];
