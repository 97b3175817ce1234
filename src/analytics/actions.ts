// The analytics operations, for the REST routes and the GraphQL queries alike; answers are wire-shaped.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { principalOf, reachableProject, requireOrganizationKey } from '../http/auth.ts';
import { notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { findContent, CONTENT_ITEMS, type ContentItemView } from '../content/readModel.ts';
import { findProject, listProjects, type ProjectView } from '../projects/readModel.ts';
import { ADS, type AdView } from '../ads/readModel.ts';
import { projectResource } from '../shared/projectResources.ts';
import type { RollupView, Scope } from './readModel.ts';
import { adFiguresOf, cellFilter, metricsOf, projectDays, rangeOf, recordsOf, recordsOfSubject, subjectRollups, subjectTotals, type Tallies } from './figures.ts';
import { analyticsListQuery, analyticsQuery, type AnalyticsQuery } from './wire.ts';

export type AnalyticsActions = ReturnType<typeof analyticsActions>;

const ads = projectResource<AdView>(ADS);
/** Projects an organization key sees in the organization's figures; more than any organization holds. */
const MOST_PROJECTS = 10_000;

const queryOf = (query: Record<string, unknown>) => parseOrThrow(analyticsQuery, query, 'Invalid query parameters');
const listQueryOf = (query: Record<string, unknown>) => parseOrThrow(analyticsListQuery, query, 'Invalid query parameters');

/** A page of rows, largest first by `size` (ties by `id`). */
function pageOf<R>(rows: { size: number; id: string | number; row: R }[], query: { 'pagination[offset]': number; 'pagination[limit]': number }): R[] {
  rows.sort((a, b) => b.size - a.size || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows.slice(query['pagination[offset]'], query['pagination[offset]'] + query['pagination[limit]']).map(({ row }) => row);
}

export function analyticsActions({ read, now }: Services) {
  const nowMs = () => now().getTime();

  /** One subject's records over the query's range, in its project's time zone. */
  const subjectRecords = async <T>(project: ProjectView, scope: Scope, subject: string, query: AnalyticsQuery, figures: (tallies: Tallies) => T) => {
    return recordsOfSubject(read, scope, subject, rangeOf(query, project.timeZone, nowMs()), query, figures);
  };
  const metricsFor = (query: AnalyticsQuery) => (tallies: Tallies) => metricsOf(tallies, query);

  const projectsOf = async (ctx: Context): Promise<ProjectView[]> => {
    const principal = principalOf(ctx);
    if (principal.scope === 'project') {
      const project = await findProject(read, principal.projectId!);
      return project ? [project] : [];
    }
    return listProjects(read, principal.organizationId, 0, MOST_PROJECTS);
  };

  return {
    async content(ctx: Context, projectParam: string | undefined, id: string, rawQuery: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectParam);
      const query = queryOf(rawQuery);
      const item = await findContent(read, project.id, id);
      if (!item) throw notFound();
      return subjectRecords(project, 'content', item._id, query, metricsFor(query));
    },

    async project(ctx: Context, projectParam: string | undefined, rawQuery: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectParam);
      const query = queryOf(rawQuery);
      return subjectRecords(project, 'project', String(project.id), query, metricsFor(query));
    },

    /** Every project of the organization, each by its own local days (hours: by the hour they begin in, UTC). */
    async organization(ctx: Context, rawQuery: Record<string, unknown>) {
      const { organizationId } = requireOrganizationKey(ctx);
      const query = queryOf(rawQuery);
      const range = rangeOf(query, 'UTC', nowMs());
      const projects = await listProjects(read, organizationId, 0, MOST_PROJECTS);
      const documents: RollupView[] = [];
      for (const project of projects) {
        documents.push(...(range.grouping === 'hour' ? await subjectRollups(read, 'project', String(project.id), range) : await projectDays(read, project.id, 'project', range)));
      }
      return recordsOf(range, documents, cellFilter(query), metricsFor(query));
    },

    async projects(ctx: Context, rawQuery: Record<string, unknown>) {
      const query = listQueryOf(rawQuery);
      const rows = [];
      for (const project of await projectsOf(ctx)) {
        // `all`: one record, the range's sum.
        const { tallies } = (await subjectRecords(project, 'project', String(project.id), { ...query, aggregation: 'all' }, (sum) => ({ tallies: sum })))[0]!;
        rows.push({ size: tallies.total.l, id: project.id, row: { project: { id: project.id, name: project.name }, ...metricsOf(tallies, query) } });
      }
      return pageOf(rows, query);
    },

    async topContent(ctx: Context, projectParam: string | undefined, rawQuery: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectParam);
      const query = listQueryOf(rawQuery);
      const range = rangeOf({ ...query, aggregation: 'all' }, project.timeZone, nowMs());
      const totals = await subjectTotals(read, project.id, 'content', range, cellFilter(query));
      const page = pageOf([...totals].map(([id, tallies]) => ({ size: tallies.total.l, id, row: { id, tallies } })), query);
      const items = read.collection<ContentItemView>(CONTENT_ITEMS);
      return Promise.all(
        page.map(async ({ id, tallies }) => {
          const item = await items.findOne({ _id: id });
          return { content: { id, title: item?.title ?? null, source_id: item?.sourceId ?? null }, ...metricsOf(tallies, query) };
        }),
      );
    },

    async ads(ctx: Context, projectParam: string | undefined, rawQuery: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectParam);
      const query = listQueryOf(rawQuery);
      const range = rangeOf({ ...query, aggregation: 'all' }, project.timeZone, nowMs());
      const totals = await subjectTotals(read, project.id, 'ad', range, cellFilter(query));
      const page = pageOf([...totals].map(([id, tallies]) => ({ size: tallies.total.i, id: Number(id), row: { id: Number(id), tallies } })), query);
      return Promise.all(
        page.map(async ({ id, tallies }) => {
          const ad = await ads.find(read, project.id, id);
          return { ad: { id, title: ad?.title ?? null }, ...adFiguresOf(tallies) };
        }),
      );
    },

    async ad(ctx: Context, projectParam: string | undefined, adParam: string, rawQuery: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectParam);
      const query = queryOf(rawQuery);
      const ad = /^\d{1,12}$/.test(adParam) ? await ads.find(read, project.id, Number(adParam)) : null;
      if (!ad) throw notFound();
      return subjectRecords(project, 'ad', String(ad.id), query, adFiguresOf);
    },
  };
}
