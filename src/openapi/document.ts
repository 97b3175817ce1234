// The OpenAPI 3.1 document of the /v1 API, generated from the zod schemas of requests and answers.
import { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { registerContent } from './content.ts';
import { registerProjectOperations } from './projects.ts';
import { registerPublicOperations } from './public.ts';
import { createRegistry } from './registry.ts';
import { registerProjectResources } from './resources.ts';
import { registerOrganizationResources } from './organizationResources.ts';
import { registerVoices } from './voices.ts';
import { registerVideoTemplates } from './videoTemplates.ts';
import { registerBackgroundTracks } from './backgroundTracks.ts';
import { registerVideoPreviews } from './videoPreview.ts';
import { registerCmsIntegration } from './cmsIntegration.ts';
import { registerSummaries } from './summaries.ts';
import { registerAnalytics } from './analytics.ts';

export function buildOpenApiDocument() {
  const registry = createRegistry();
  registerContent(registry);
  registerProjectOperations(registry);
  registerVoices(registry);
  registerProjectResources(registry);
  registerOrganizationResources(registry);
  registerVideoTemplates(registry);
  registerBackgroundTracks(registry);
  registerVideoPreviews(registry);
  registerCmsIntegration(registry);
  registerSummaries(registry);
  registerAnalytics(registry);
  registerPublicOperations(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Narration service',
      version: '1',
      description:
        "Turns publishers' articles into narrated audio. Every answer carries every field of its resource: `null` when unset, `[]` for empty lists. " +
        'Errors answer `{code, message[, errors[{location, message}]]}`. The GraphQL admin API is at `/graphql`.',
    },
    servers: [{ url: '/v1' }],
    security: [],
    tags: [
      { name: 'Content' },
      { name: 'Projects' },
      { name: 'Voices' },
      { name: 'Player' },
      { name: 'Podcasts' },
      { name: 'Webhooks' },
      { name: 'Ads' },
      { name: 'Access tiers' },
      { name: 'Playlists' },
      { name: 'Content filters' },
      { name: 'Pronunciation rules' },
      { name: 'Speakers' },
      { name: 'Video' },
      { name: 'Audio' },
      { name: 'Feed imports' },
      { name: 'Extraction' },
      { name: 'Integrations' },
      { name: 'Summaries' },
      { name: 'Analytics' },
    ],
  });
}

/** The document as committed in schema/openapi.json and served at /v1/openapi.json. */
export const openApiJson = () => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
