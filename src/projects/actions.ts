// Project use cases shared by the REST routes and the GraphQL resolvers; answers are wire-shaped.
import type { Context } from 'koa';
import { z } from 'zod';
import { baseUrlOf } from '../http/public.ts';
import type { Services } from '../services.ts';
import { principalOf, reachableProject, requireOrganizationKey } from '../http/auth.ts';
import { contentStatsOf } from '../content/readModel.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../content/wire.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { queryInt } from '../shared/wireSchemas.ts';
import { projectStream, type SettingsResource } from './events.ts';
import { projectsProjection } from '../../projections/projects.ts';
import { readAfterWrite } from '../../projections/inMemory.ts';
import { invalid, notFound } from '../shared/errors.ts';
import type { VoiceCatalogue } from '../voices/catalogue.ts';
import { findProject, listProjects, type ProjectView } from './readModel.ts';
import { checkVideoTemplateReference } from '../videoTemplates/reference.ts';
import { backgroundTrackOf, checkBackgroundTrackReference } from '../backgroundTracks/reference.ts';
import { projectToWire, settingsToWire } from './wire.ts';

const pageQuery = z.object({
  'pagination[limit]': queryInt(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  'pagination[offset]': queryInt(0, 1_000_000_000).default(0),
});

export type ProjectActions = ReturnType<typeof projectActions>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A project's language is that of its items that name none: like an item's (src/content/handlers.ts), it must have a
 * voice, never to be read by another language's. A malformed code is left to the body's schema.
 */
function checkLanguage(voices: VoiceCatalogue, body: unknown) {
  const language = isObject(body) ? body.language : undefined;
  const code = typeof language === 'string' ? language : isObject(language) && typeof language.code === 'string' ? language.code : null;
  if (code && /^[a-z]{2}(_[A-Z]{2})?$/.test(code) && !voices.defaultFor(code)) {
    throw invalid([{ location: 'language', message: `${code} has no voice (GET /organization/languages lists the languages that have one)` }]);
  }
}

export function projectActions({ events, read, runner, projects, now, voices, publicBaseUrl }: Services) {
  const toWire = async (project: ProjectView) => projectToWire(project, await contentStatsOf(read, project.id));
  /** The project as the command left it (read-your-writes, bounded: see readAfterWrite). */
  const afterWrite = async (projectId: number, position: number) => {
    const write = { position, stream: projectStream(projectId), projection: projectsProjection };
    const project = await readAfterWrite({ runner, events, read }, write, (store) => findProject(store, projectId));
    if (!project) throw notFound();
    return project;
  };
  const reread = async (projectId: number, position: number) => toWire(await afterWrite(projectId, position));

  return {
    /** An organization key lists its organization's projects; a project key sees its own project. */
    async list(ctx: Context, query: Record<string, unknown>) {
      const page = parseOrThrow(pageQuery, query, 'Invalid query parameters');
      const principal = principalOf(ctx);
      const offset = page['pagination[offset]'];
      const limit = page['pagination[limit]'];
      const found =
        principal.scope === 'organization'
          ? await listProjects(read, principal.organizationId, offset, limit)
          : [await findProject(read, principal.projectId!)].filter((project) => project !== null).slice(offset, offset + limit);
      return Promise.all(found.map(toWire));
    },

    async create(ctx: Context, body: unknown) {
      const principal = requireOrganizationKey(ctx);
      checkLanguage(voices, body);
      await checkBackgroundTrackReference(read, principal.organizationId, null, backgroundTrackOf(body));
      const { projectId, position } = await projects.create(principal.organizationId, body, now());
      return reread(projectId, position);
    },

    async get(ctx: Context, projectRef: string | undefined) {
      return toWire(await reachableProject(ctx, read, projectRef));
    },

    async update(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      checkLanguage(voices, body);
      await checkBackgroundTrackReference(read, project.organizationId, project.id, backgroundTrackOf(body));
      return reread(project.id, await projects.update(project.id, body, now()));
    },

    async getSettings(ctx: Context, projectRef: string | undefined, resource: SettingsResource) {
      return settingsToWire(await reachableProject(ctx, read, projectRef), resource, baseUrlOf(ctx, publicBaseUrl));
    },

    async updateSettings(ctx: Context, projectRef: string | undefined, resource: SettingsResource, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      if (resource === 'video') await checkVideoTemplateReference(read, project.organizationId, body);
      return settingsToWire(await afterWrite(project.id, await projects.updateSettings(project.id, resource, body, now())), resource, baseUrlOf(ctx, publicBaseUrl));
    },

    async remove(ctx: Context, projectRef: string | undefined) {
      const project = await reachableProject(ctx, read, projectRef);
      requireOrganizationKey(ctx);
      await runner.waitFor(await projects.remove(project.id, now()));
    },
  };
}
