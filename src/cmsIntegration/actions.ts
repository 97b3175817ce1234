// CMS integration use cases shared by the REST routes (and GraphQL later): settings, their test, post deliveries and client-side imports.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { reachableProject } from '../http/auth.ts';
import { AppError } from '../shared/errors.ts';
import { findProject } from '../projects/readModel.ts';
import { CONTENT_ITEMS, type ContentItemView } from '../content/readModel.ts';
import { createCmsIntegrationHandlers } from './handlers.ts';
import { findCmsIntegration } from './readModel.ts';
import { readPost } from './posts.ts';
import { defaultCmsSettings, importableFrom, type CmsSettings } from './settings.ts';
import { postSync, type Touched } from './sync.ts';
import { cmsSettingsToWire, type CmsTestWire } from './wire.ts';

export type CmsIntegrationActions = ReturnType<typeof cmsIntegrationActions>;

const disabled = () =>
  new AppError('Forbidden', "The project's CMS integration is not enabled: PUT /projects/{project_id}/integrations/cms with enabled true");

/** The host of a referring page's absolute http(s) URL, or null for anything else. */
function hostOf(url: string): string | null {
  if (url.length > 2048) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** One per app, so the webhook and the player's imports share one queue per post. */
const perApp = new WeakMap<Services, ReturnType<typeof createActions>>();
export function cmsIntegrationActions(services: Services) {
  let actions = perApp.get(services);
  if (!actions) perApp.set(services, (actions = createActions(services)));
  return actions;
}

function createActions(services: Services) {
  const { events, read, runner, now } = services;
  const handlers = createCmsIntegrationHandlers(events);
  const sync = postSync(services);

  const settingsOf = async (projectId: number): Promise<CmsSettings> => (await findCmsIntegration(read, projectId)) ?? defaultCmsSettings;

  return {
    async getSettings(ctx: Context, projectRef: string | undefined) {
      const project = await reachableProject(ctx, read, projectRef);
      const found = await findCmsIntegration(read, project.id);
      return cmsSettingsToWire(found, found?.created ?? null, found?.updated ?? null);
    },

    async updateSettings(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const { state, position } = await handlers.update(project.id, body, now());
      await runner.waitFor(position);
      return cmsSettingsToWire(state.settings, state.created, state.updated);
    },

    /**
     * Checks the saved settings and, given a sample delivery as the body, reads it as the posts webhook would and
     * says what it would do, changing nothing. A sample the webhook would refuse gets the webhook's own 422.
     */
    async test(ctx: Context, projectRef: string | undefined, body: unknown): Promise<CmsTestWire> {
      const project = await reachableProject(ctx, read, projectRef);
      const settings = await settingsOf(project.id);
      const problems = [
        ...(settings.enabled ? [] : ['the integration is not enabled: deliveries are refused with 403 and client-side imports create nothing']),
        ...(settings.allowedDomains.length > 0 ? [] : ['allowed_domains is empty: client-side imports create nothing']),
      ];
      const sample = typeof body === 'object' && body !== null && Object.keys(body).length > 0;
      if (!sample) return { ok: settings.enabled, problems, post: null };
      const change = readPost(settings.platform, body);
      const item = await read.collection<ContentItemView>(CONTENT_ITEMS).findOne({ projectId: project.id, sourceId: change.sourceId });
      const fields = 'fields' in change ? change.fields : {};
      return {
        ok: settings.enabled,
        problems,
        post: {
          action: change.kind,
          source_id: change.sourceId,
          title: fields.title ?? null,
          source_url: fields.source_url ?? null,
          publish_date: fields.publish_date ?? null,
          item: item ? { id: item._id, status: item.status } : null,
        },
      };
    },

    /** A delivery of the platform's posts webhook; the caller was authenticated by the `api_key` query parameter. */
    async receivePost(ctx: Context, projectRef: string | undefined, body: unknown): Promise<Touched> {
      const project = await reachableProject(ctx, read, projectRef);
      const settings = await findCmsIntegration(read, project.id);
      if (!settings?.enabled) throw disabled();
      return sync.apply(project.id, readPost(settings.platform, body), settings);
    },

    /**
     * Client-side import (the WordPress plugin's Magic Embed): a player lookup by source id that matched nothing,
     * sent with `X-Import: true` and the page's permalink. Creates the item with that source id and page and no
     * body, so the generation pipeline fetches and extracts the page; nothing is fetched here. Only for a page of
     * one of the integration's allowed domains; null when nothing was created.
     */
    async importPage(projectId: number, sourceId: string, referrer: string): Promise<Touched | null> {
      const host = hostOf(referrer);
      if (!host || sourceId.length > 255 || sourceId.trim() === '') return null;
      const settings = await findCmsIntegration(read, projectId);
      if (!settings?.enabled || !importableFrom(settings.allowedDomains, host)) return null;
      if (!(await findProject(read, projectId))) return null;
      return sync.importPage(projectId, sourceId.trim(), referrer);
    },
  };
}
