// Speaker use cases of the REST routes (organization keys): answers are wire-shaped and reflect the command.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { requireOrganizationKey } from '../http/auth.ts';
import { organizationResourceAccess } from '../shared/crud/actions.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { speakersProjection } from '../../projections/speakers.ts';
import { speakerQuery } from './commands.ts';
import { speakerStream } from './events.ts';
import { createSpeakerHandlers } from './handlers.ts';
import { findSpeaker, listSpeakers, type SpeakerView } from './readModel.ts';
import { speakerToWire } from './wire.ts';

export type SpeakerActions = ReturnType<typeof speakerActions>;

/** `detail` is checked on every answer that carries speakers; custom voices are empty at every detail (wire.ts). */
const checkDetail = (query: Record<string, unknown>) => parseOrThrow(speakerQuery, { detail: query.detail }, 'Invalid query parameters');

export function speakerActions({ events, read, runner, now, voices }: Services) {
  const handlers = createSpeakerHandlers(events, voices);
  const toWire = (speaker: SpeakerView) => speakerToWire(speaker, voices);

  const access = organizationResourceAccess({ events, read, runner }, findSpeaker, (_, id) => ({ stream: speakerStream(id), projection: speakersProjection }));
  const existing = access.existing;
  const afterWrite = async (organizationId: number, id: number, position: number) => toWire(await access.afterWrite(organizationId, id, position));

  return {
    async list(ctx: Context, query: Record<string, unknown>) {
      const { organizationId } = requireOrganizationKey(ctx);
      checkDetail(query);
      const page = parseOrThrow(pageQuery, { 'pagination[limit]': query['pagination[limit]'], 'pagination[offset]': query['pagination[offset]'] }, 'Invalid query parameters');
      return (await listSpeakers(read, organizationId, page['pagination[offset]'], page['pagination[limit]'])).map(toWire);
    },
    async create(ctx: Context, body: unknown, query: Record<string, unknown>) {
      const { organizationId } = requireOrganizationKey(ctx);
      checkDetail(query);
      const { id, position } = await handlers.create(organizationId, body, now());
      return afterWrite(organizationId, id, position);
    },
    async get(ctx: Context, ref: string, query: Record<string, unknown>) {
      const { organizationId } = requireOrganizationKey(ctx);
      checkDetail(query);
      return toWire(await existing(organizationId, ref));
    },
    async update(ctx: Context, ref: string, body: unknown, query: Record<string, unknown>) {
      const { organizationId } = requireOrganizationKey(ctx);
      checkDetail(query);
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
