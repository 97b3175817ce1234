// GraphQL queries and mutations; each calls the same use case as its REST route.
import type { Context } from 'koa';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { ContentActions } from '../content/actions.ts';
import type { ProjectActions } from '../projects/actions.ts';
import type { AnalyticsActions } from '../analytics/actions.ts';
import { detailQuery } from '../content/wire.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { ContentFilterInput, ContentItemType, ContentOrderInput, PaginationInput, ProjectType } from './types.ts';

export interface GraphqlContext {
  ctx: Context;
  actions: { content: ContentActions; projects: ProjectActions; analytics: AnalyticsActions };
}

/** GraphQL arguments become the REST query parameters, so both go through one validation. */
function listQuery(filter?: ContentFilterInput, pagination?: PaginationInput, order?: ContentOrderInput, segments?: string) {
  const query: Record<string, unknown> = { segments };
  const ranges = ['created', 'updated', 'publish_date'] as const;
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (value === undefined || value === null) continue;
    const range = ranges.find((name) => key === `${name}_from` || key === `${name}_to`);
    if (range) query[`filter[${range}][${key.endsWith('_from') ? 'from' : 'to'}]`] = value;
    else if (key === 'statuses') query['filter[statuses][]'] = value;
    else query[`filter[${key}]`] = String(value);
  }
  if (pagination?.limit !== undefined) query['pagination[limit]'] = String(pagination.limit);
  if (pagination?.offset !== undefined) query['pagination[offset]'] = String(pagination.offset);
  if (order?.by) query['order[by]'] = order.by;
  if (order?.dir) query['order[dir]'] = order.dir;
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
}

const detailOf = (segments?: string, words?: string) => parseOrThrow(detailQuery, { segments, words }, 'Invalid arguments');

@Resolver()
export class ProjectResolver {
  @Query(() => [ProjectType])
  projects(@Ctx() { ctx, actions }: GraphqlContext, @Arg('pagination', () => PaginationInput, { nullable: true }) pagination?: PaginationInput) {
    return actions.projects.list(ctx, listQuery(undefined, pagination));
  }

  @Query(() => ProjectType)
  project(@Ctx() { ctx, actions }: GraphqlContext, @Arg('id', () => Int) id: number) {
    return actions.projects.get(ctx, String(id));
  }

  @Mutation(() => ProjectType)
  updateProject(@Ctx() { ctx, actions }: GraphqlContext, @Arg('id', () => Int) id: number, @Arg('input', () => GraphQLJSONObject) input: object) {
    return actions.projects.update(ctx, String(id), input);
  }
}

@Resolver()
export class ContentResolver {
  @Query(() => [ContentItemType])
  contents(
    @Ctx() { ctx, actions }: GraphqlContext,
    @Arg('project_id', () => Int) projectId: number,
    @Arg('filter', () => ContentFilterInput, { nullable: true }) filter?: ContentFilterInput,
    @Arg('pagination', () => PaginationInput, { nullable: true }) pagination?: PaginationInput,
    @Arg('order', () => ContentOrderInput, { nullable: true }) order?: ContentOrderInput,
    @Arg('segments', () => String, { nullable: true }) segments?: string,
  ) {
    return actions.content.list(ctx, String(projectId), listQuery(filter, pagination, order, segments));
  }

  @Query(() => ContentItemType)
  content(
    @Ctx() { ctx, actions }: GraphqlContext,
    @Arg('project_id', () => Int) projectId: number,
    @Arg('id', () => ID) id: string,
    @Arg('segments', () => String, { nullable: true }) segments?: string,
    @Arg('words', () => String, { nullable: true }) words?: string,
  ) {
    return actions.content.get(ctx, String(projectId), id, detailOf(segments, words));
  }

  @Mutation(() => ContentItemType, { description: 'Same body as POST /projects/{project_id}/content.' })
  createContent(@Ctx() { ctx, actions }: GraphqlContext, @Arg('project_id', () => Int) projectId: number, @Arg('input', () => GraphQLJSONObject) input: object) {
    return actions.content.create(ctx, String(projectId), input, detailOf());
  }

  @Mutation(() => ContentItemType, { description: 'Same body as PUT /projects/{project_id}/content/{id}.' })
  updateContent(
    @Ctx() { ctx, actions }: GraphqlContext,
    @Arg('project_id', () => Int) projectId: number,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => GraphQLJSONObject) input: object,
  ) {
    return actions.content.update(ctx, String(projectId), id, input, detailOf());
  }

  @Mutation(() => Boolean)
  async deleteContent(@Ctx() { ctx, actions }: GraphqlContext, @Arg('project_id', () => Int) projectId: number, @Arg('id', () => ID) id: string) {
    await actions.content.remove(ctx, String(projectId), id);
    return true;
  }
}
