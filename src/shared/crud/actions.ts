// The REST use cases of a project-owned resource: list, create, get, update, delete within a reachable project,
// answering wire-shaped documents that reflect the command (read-your-writes).
import type { Context } from 'koa';
import type { Services } from '../../services.ts';
import { principalOf, reachableProject, requireOrganizationKey } from '../../http/auth.ts';
import type { ResourceActions } from '../../http/resourceRoutes.ts';
import { pageQuery } from '../../webhooks/wire.ts';
import { notFound } from '../errors.ts';
import { projectResource, type ProjectResourceView } from '../projectResources.ts';
import { parseOrThrow } from '../validation.ts';
import type { ResourceHandlers } from './handlers.ts';
import type { Projection } from '../../../projections/projection.ts';
import { readAfterWrite } from '../../../projections/inMemory.ts';
import type { ReadStore } from '../../infrastructure/readStore/port.ts';

export interface ResourceReads<View, Wire> {
  /** The read model's collection, and the projection and streams it is built from. */
  collection: string;
  projection: Projection;
  stream: (id: number) => string;
  toWire(view: View): Wire;
}

/** A route's `{id}`: a positive integer, or nothing is found. */
export const resourceIdOf = (ref: string) => (/^\d{1,12}$/.test(ref) ? Number(ref) : NaN);

/**
 * How an organization-owned resource (speakers, pronunciation rules, video settings templates) is found for a
 * route's `{id}`, and read back as a command left it (read-your-writes, bounded: see readAfterWrite).
 */
export function organizationResourceAccess<View>(
  { events, read, runner }: Pick<Services, 'events' | 'read' | 'runner'>,
  find: (store: ReadStore, organizationId: number, id: number) => Promise<View | null>,
  written: (organizationId: number, id: number) => { stream: string; projection: Projection },
) {
  return {
    async existing(organizationId: number, ref: string): Promise<View> {
      const id = resourceIdOf(ref);
      const found = Number.isSafeInteger(id) ? await find(read, organizationId, id) : null;
      if (!found) throw notFound();
      return found;
    },
    async afterWrite(organizationId: number, id: number, position: number): Promise<View> {
      const write = { position, ...written(organizationId, id) };
      const found = await readAfterWrite({ runner, events, read }, write, (store) => find(store, organizationId, id));
      if (!found) throw notFound();
      return found;
    },
  };
}

/** How an organization-owned resource is read, for `organizationResourceActions`. */
export interface OrganizationResourceReads<View, Wire, Summary> {
  find: (store: ReadStore, organizationId: number, id: number) => Promise<View | null>;
  list: (store: ReadStore, organizationId: number, offset: number, limit: number) => Promise<View[]>;
  stream: (id: number) => string;
  projection: Projection;
  toWire(view: View): Wire;
  /** A list's entry. */
  summaryToWire(view: View): Summary;
}

/**
 * The REST use cases of an organization-owned resource in a stream of its own (video settings templates, script
 * templates): any key of the organization reads (the WordPress plugin lists templates with its project key),
 * organization keys write; answers are wire-shaped and reflect the command.
 */
export function organizationResourceActions<View extends { id: number }, Wire, Summary>(
  { events, read, runner, now }: Pick<Services, 'events' | 'read' | 'runner' | 'now'>,
  reads: OrganizationResourceReads<View, Wire, Summary>,
  handlers: ResourceHandlers,
) {
  const access = organizationResourceAccess({ events, read, runner }, reads.find, (_, id) => ({ stream: reads.stream(id), projection: reads.projection }));
  const afterWrite = async (organizationId: number, id: number, position: number) => reads.toWire(await access.afterWrite(organizationId, id, position));
  return {
    async list(ctx: Context, query: Record<string, unknown>) {
      const { organizationId } = principalOf(ctx);
      const page = parseOrThrow(pageQuery, { 'pagination[limit]': query['pagination[limit]'], 'pagination[offset]': query['pagination[offset]'] }, 'Invalid query parameters');
      return (await reads.list(read, organizationId, page['pagination[offset]'], page['pagination[limit]'])).map(reads.summaryToWire);
    },
    async create(ctx: Context, body: unknown) {
      const { organizationId } = requireOrganizationKey(ctx);
      const { id, position } = await handlers.create(organizationId, body, now());
      return afterWrite(organizationId, id, position);
    },
    async get(ctx: Context, ref: string) {
      return reads.toWire(await access.existing(principalOf(ctx).organizationId, ref));
    },
    async update(ctx: Context, ref: string, body: unknown) {
      const { organizationId } = requireOrganizationKey(ctx);
      const found = await access.existing(organizationId, ref);
      return afterWrite(organizationId, found.id, await handlers.update(organizationId, found.id, body, now()));
    },
    async remove(ctx: Context, ref: string) {
      const { organizationId } = requireOrganizationKey(ctx);
      const found = await access.existing(organizationId, ref);
      await runner.waitFor(await handlers.remove!(organizationId, found.id, now()));
    },
  };
}

export function projectResourceActions<View extends ProjectResourceView, Wire>(
  { events, read, runner, now }: Pick<Services, 'events' | 'read' | 'runner' | 'now'>,
  reads: ResourceReads<View, Wire>,
  handlers: ResourceHandlers,
) {
  const documents = projectResource<View>(reads.collection);

  const existing = async (projectId: number, ref: string): Promise<View> => {
    const id = resourceIdOf(ref);
    const found = Number.isSafeInteger(id) ? await documents.find(read, projectId, id) : null;
    if (!found) throw notFound();
    return found;
  };

  /** The resource as the command left it (read-your-writes, bounded: see readAfterWrite). */
  const afterWrite = async (projectId: number, id: number, position: number) => {
    const write = { position, stream: reads.stream(id), projection: reads.projection };
    const found = await readAfterWrite({ runner, events, read }, write, (store) => documents.find(store, projectId, id));
    if (!found) throw notFound();
    return reads.toWire(found);
  };

  const remove = handlers.remove?.bind(handlers);

  return {
    async list(ctx: Context, projectRef: string | undefined, query: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectRef);
      const page = parseOrThrow(pageQuery, query, 'Invalid query parameters');
      return (await documents.list(read, project.id, page['pagination[offset]'], page['pagination[limit]'])).map(reads.toWire);
    },

    async create(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const { id, position } = await handlers.create(project.id, body, now());
      return afterWrite(project.id, id, position);
    },

    async get(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      return reads.toWire(await existing(project.id, ref));
    },

    async update(ctx: Context, projectRef: string | undefined, ref: string, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const found = await existing(project.id, ref);
      return afterWrite(project.id, found.id, await handlers.update(project.id, found.id, body, now()));
    },

    ...(remove && {
      async remove(ctx: Context, projectRef: string | undefined, ref: string) {
        const project = await reachableProject(ctx, read, projectRef);
        const found = await existing(project.id, ref);
        await runner.waitFor(await remove(project.id, found.id, now()));
      },
    }),
  } satisfies ResourceActions;
}
