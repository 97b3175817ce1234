// Video settings template use cases of the REST routes: any key of the organization reads (the WordPress plugin
// lists templates with its project key), organization keys write. Answers are wire-shaped and reflect the command.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { principalOf, requireOrganizationKey } from '../http/auth.ts';
import { organizationResourceAccess } from '../shared/crud/actions.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { videoTemplatesProjection } from '../../projections/videoTemplates.ts';
import { videoTemplateStream } from './events.ts';
import { createVideoTemplateHandlers } from './handlers.ts';
import { findVideoTemplate, listVideoTemplates } from './readModel.ts';
import { videoTemplateSummaryToWire, videoTemplateToWire } from './wire.ts';

export type VideoTemplateActions = ReturnType<typeof videoTemplateActions>;

export function videoTemplateActions({ events, read, runner, now }: Services) {
  const handlers = createVideoTemplateHandlers(events);

  const access = organizationResourceAccess({ events, read, runner }, findVideoTemplate, (_, id) => ({ stream: videoTemplateStream(id), projection: videoTemplatesProjection }));
  const existing = access.existing;
  const afterWrite = async (organizationId: number, id: number, position: number) => videoTemplateToWire(await access.afterWrite(organizationId, id, position));

  return {
    async list(ctx: Context, query: Record<string, unknown>) {
      const { organizationId } = principalOf(ctx);
      const page = parseOrThrow(pageQuery, { 'pagination[limit]': query['pagination[limit]'], 'pagination[offset]': query['pagination[offset]'] }, 'Invalid query parameters');
      return (await listVideoTemplates(read, organizationId, page['pagination[offset]'], page['pagination[limit]'])).map(videoTemplateSummaryToWire);
    },
    async create(ctx: Context, body: unknown) {
      const { organizationId } = requireOrganizationKey(ctx);
      const { id, position } = await handlers.create(organizationId, body, now());
      return afterWrite(organizationId, id, position);
    },
    async get(ctx: Context, ref: string) {
      return videoTemplateToWire(await existing(principalOf(ctx).organizationId, ref));
    },
    async update(ctx: Context, ref: string, body: unknown) {
      const { organizationId } = requireOrganizationKey(ctx);
      const found = await existing(organizationId, ref);
      return afterWrite(organizationId, found.id, await handlers.update(organizationId, found.id, body, now()));
    },
    async remove(ctx: Context, ref: string) {
      const { organizationId } = requireOrganizationKey(ctx);
      const found = await existing(organizationId, ref);
      await runner.waitFor(await handlers.remove!(organizationId, found.id, now()));
    },
  };
}
