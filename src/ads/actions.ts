// Ad use cases of the REST routes; answers are wire-shaped.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { reachableProject } from '../http/auth.ts';
import { notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { findAd, listAds, type AdView } from './readModel.ts';
import { adToWire } from './wire.ts';

export type AdActions = ReturnType<typeof adActions>;

/** A route's `{id}`: a positive integer, or nothing is found. */
const adIdOf = (ref: string) => (/^\d{1,12}$/.test(ref) ? Number(ref) : NaN);

export function adActions({ read, runner, ads, now }: Services) {
  const existing = async (projectId: number, ref: string): Promise<AdView> => {
    const adId = adIdOf(ref);
    const ad = Number.isSafeInteger(adId) ? await findAd(read, projectId, adId) : null;
    if (!ad) throw notFound();
    return ad;
  };

  /** Answers from the read model once it has applied the command's events (read-your-writes). */
  const afterWrite = async (projectId: number, adId: number, position: number) => {
    await runner.waitFor(position);
    return adToWire(await existing(projectId, String(adId)));
  };

  return {
    async list(ctx: Context, projectRef: string | undefined, query: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectRef);
      const page = parseOrThrow(pageQuery, query, 'Invalid query parameters');
      return (await listAds(read, project.id, page['pagination[offset]'], page['pagination[limit]'])).map(adToWire);
    },

    async create(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const { adId, position } = await ads.create(project.id, body, now());
      return afterWrite(project.id, adId, position);
    },

    async get(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      return adToWire(await existing(project.id, ref));
    },

    async update(ctx: Context, projectRef: string | undefined, ref: string, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const ad = await existing(project.id, ref);
      return afterWrite(project.id, ad.id, await ads.update(project.id, ad.id, body, now()));
    },

    async remove(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      const ad = await existing(project.id, ref);
      await runner.waitFor(await ads.remove(project.id, ad.id, now()));
    },
  };
}
