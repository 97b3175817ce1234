// Feed import use cases of the REST routes: the kit's five, `run` now and `test` of an unsaved import; wire-shaped answers.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { feedImportsProjection } from '../../projections/feedImports.ts';
import { reachableProject } from '../http/auth.ts';
import { projectResourceActions, resourceIdOf } from '../shared/crud/actions.ts';
import { camelKeys } from '../shared/caseMapping.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { createFeedImportSchema } from './commands.ts';
import { feedImportStream, type FeedImportFields } from './events.ts';
import { FeedProblem } from './feed.ts';
import { FEED_IMPORTS, findFeedImport } from './readModel.ts';
import { createFeedRunner } from './run.ts';
import { feedImportToWire, type FeedTestWire } from './wire.ts';

export type FeedImportActions = ReturnType<typeof feedImportActions>;

export function feedImportActions(services: Services) {
  const crud = projectResourceActions(services, { collection: FEED_IMPORTS, projection: feedImportsProjection, stream: feedImportStream, toWire: feedImportToWire }, services.feedImports);
  const runner = createFeedRunner({ events: services.events, read: services.read, content: services.content, limits: services.feedLimits, now: services.now });

  return {
    ...crud,

    /** Runs the import now and answers its counts; they are its `last_run` once answered. */
    async run(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, services.read, projectRef);
      const id = resourceIdOf(ref);
      const found = Number.isSafeInteger(id) ? await findFeedImport(services.read, project.id, id) : null;
      if (!found) throw notFound();
      const { counts, position } = (await runner.run(found.id))!;
      if (position > 0) await services.runner.waitFor(position);
      return counts;
    },

    /** What an unsaved import would import now; nothing is created. A feed that cannot be read is a 422 at `url`. */
    async test(ctx: Context, projectRef: string | undefined, body: unknown): Promise<FeedTestWire> {
      await reachableProject(ctx, services.read, projectRef);
      const settings = camelKeys<FeedImportFields>(parseOrThrow(createFeedImportSchema, body));
      try {
        return { items: await runner.preview(settings) };
      } catch (failure) {
        if (failure instanceof FeedProblem) throw invalid([{ location: 'url', message: failure.message }], 'The feed could not be read');
        throw failure;
      }
    },
  };
}
