// Access tier use cases of the REST routes; answers are wire-shaped.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { reachableProject } from '../http/auth.ts';
import { notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { findAccessTier, listAccessTiers, type AccessTierView } from './readModel.ts';
import { accessTierToWire } from './wire.ts';

export type AccessTierActions = ReturnType<typeof accessTierActions>;

/** A route's `{id}`: a positive integer, or nothing is found. */
const accessTierIdOf = (ref: string) => (/^\d{1,12}$/.test(ref) ? Number(ref) : NaN);

export function accessTierActions({ read, runner, accessTiers, now }: Services) {
  const existing = async (projectId: number, ref: string): Promise<AccessTierView> => {
    const accessTierId = accessTierIdOf(ref);
    const tier = Number.isSafeInteger(accessTierId) ? await findAccessTier(read, projectId, accessTierId) : null;
    if (!tier) throw notFound();
    return tier;
  };

  /** Answers from the read model once it has applied the command's events (read-your-writes). */
  const afterWrite = async (projectId: number, accessTierId: number, position: number) => {
    await runner.waitFor(position);
    return accessTierToWire(await existing(projectId, String(accessTierId)));
  };

  return {
    async list(ctx: Context, projectRef: string | undefined, query: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectRef);
      const page = parseOrThrow(pageQuery, query, 'Invalid query parameters');
      return (await listAccessTiers(read, project.id, page['pagination[offset]'], page['pagination[limit]'])).map(accessTierToWire);
    },

    async create(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const { accessTierId, position } = await accessTiers.create(project.id, body, now());
      return afterWrite(project.id, accessTierId, position);
    },

    async get(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      return accessTierToWire(await existing(project.id, ref));
    },

    async update(ctx: Context, projectRef: string | undefined, ref: string, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const tier = await existing(project.id, ref);
      return afterWrite(project.id, tier.id, await accessTiers.update(project.id, tier.id, body, now()));
    },
  };
}
