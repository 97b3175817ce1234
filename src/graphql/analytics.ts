// GraphQL queries of the listening analytics: the seven REST operations, through the same actions and validation.
import { Arg, Ctx, Field, Float, ID, InputType, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from './resolvers.ts';
import { PaginationInput } from './types.ts';

@ObjectType('FiguresByDevice', { description: 'A figure in total and per device (`mobile_web`: phones)' })
export class FiguresByDeviceType {
  @Field(() => Float) total!: number;
  @Field(() => Float) desktop!: number;
  @Field(() => Float) tablet!: number;
  @Field(() => Float) mobile_web!: number;
  @Field(() => Float) ios!: number;
  @Field(() => Float) android!: number;
}

@ObjectType('ImpressionsByDevice')
export class ImpressionsByDeviceType extends FiguresByDeviceType {
  @Field(() => Float, { description: "The same as `android`: the spelling of the original's sample" }) andriod!: number;
}

@ObjectType('RetentionByDevice', { description: 'Percentage of listens that reached 10 %, 20 %, …, 100 %' })
export class RetentionByDeviceType {
  @Field(() => [Int]) total!: number[];
  @Field(() => [Int]) desktop!: number[];
  @Field(() => [Int]) tablet!: number[];
  @Field(() => [Int]) mobile_web!: number[];
  @Field(() => [Int]) ios!: number[];
  @Field(() => [Int]) android!: number[];
}

/** The metrics every analytics record and row has; each null when not asked for. */
@ObjectType('AnalyticsMetrics')
export class MetricsType {
  @Field(() => ImpressionsByDeviceType, { nullable: true }) player_impressions!: ImpressionsByDeviceType | null;
  @Field(() => FiguresByDeviceType, { nullable: true }) listens!: FiguresByDeviceType | null;
  @Field(() => FiguresByDeviceType, { nullable: true }) listen_rate!: FiguresByDeviceType | null;
  @Field(() => FiguresByDeviceType, { nullable: true }) unique_listeners!: FiguresByDeviceType | null;
  @Field(() => FiguresByDeviceType, { nullable: true }) avg_listen_time!: FiguresByDeviceType | null;
  @Field(() => FiguresByDeviceType, { nullable: true }) avg_listen_duration!: FiguresByDeviceType | null;
  @Field(() => FiguresByDeviceType, { nullable: true }) listen_time!: FiguresByDeviceType | null;
  @Field(() => RetentionByDeviceType, { nullable: true }) listener_retention!: RetentionByDeviceType | null;
}

@ObjectType('AnalyticsRecord')
export class AnalyticsRecordType extends MetricsType {
  @Field(() => String, { description: "Where the period begins: ISO 8601 in the project's time zone" }) start!: string;
}

@ObjectType('AnalyticsProject')
export class AnalyticsProjectType {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
}

@ObjectType('ProjectAnalyticsRow')
export class ProjectAnalyticsRowType extends MetricsType {
  @Field(() => AnalyticsProjectType) project!: AnalyticsProjectType;
}

@ObjectType('AnalyticsContent')
export class AnalyticsContentType {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) source_id!: string | null;
}

@ObjectType('ContentAnalyticsRow')
export class ContentAnalyticsRowType extends MetricsType {
  @Field(() => AnalyticsContentType) content!: AnalyticsContentType;
}

@ObjectType('AdFigures')
export class AdFiguresType {
  @Field(() => FiguresByDeviceType) impressions!: FiguresByDeviceType;
  @Field(() => FiguresByDeviceType) clicks!: FiguresByDeviceType;
  @Field(() => FiguresByDeviceType) click_through_rate!: FiguresByDeviceType;
}

@ObjectType('AnalyticsAd')
export class AnalyticsAdType {
  @Field(() => Int) id!: number;
  @Field(() => String, { nullable: true }) title!: string | null;
}

@ObjectType('AdAnalyticsRow')
export class AdAnalyticsRowType extends AdFiguresType {
  @Field(() => AnalyticsAdType) ad!: AnalyticsAdType;
}

@ObjectType('AdAnalyticsRecord')
export class AdAnalyticsRecordType extends AdFiguresType {
  @Field(() => String) start!: string;
}

/** The query parameters of the REST operations (docs/analytics.md, "Queries"). */
@InputType('AnalyticsQuery')
export class AnalyticsQueryInput {
  @Field(() => String, { nullable: true, description: '`all`, `hour` (ranges of 7 days or less), `day` (default), `week`, `month` or `year`' }) aggregation?: string;
  @Field(() => String, { nullable: true, description: 'yyyy-mm-dd' }) start_date?: string;
  @Field(() => String, { nullable: true, description: 'yyyy-mm-dd or `today`' }) end_date?: string;
  @Field(() => [String], { nullable: true }) metrics?: string[];
  @Field(() => [String], { nullable: true }) media_variants?: string[];
  @Field(() => [String], { nullable: true }) media_formats?: string[];
  @Field(() => [String], { nullable: true }) access_tiers?: string[];
}

/** GraphQL arguments as the REST query parameters, so both go through one validation. */
function restQuery(query?: AnalyticsQueryInput, pagination?: PaginationInput): Record<string, unknown> {
  const rest: Record<string, unknown> = {
    aggregation: query?.aggregation,
    start_date: query?.start_date,
    end_date: query?.end_date,
    'metrics[]': query?.metrics,
    'media_variants[]': query?.media_variants,
    'media_formats[]': query?.media_formats,
    'access_tiers[]': query?.access_tiers,
    'pagination[limit]': pagination?.limit === undefined ? undefined : String(pagination.limit),
    'pagination[offset]': pagination?.offset === undefined ? undefined : String(pagination.offset),
  };
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && value !== null));
}

const queryArg = () => Arg('query', () => AnalyticsQueryInput, { nullable: true });
const pageArg = () => Arg('pagination', () => PaginationInput, { nullable: true });

@Resolver()
export class AnalyticsResolver {
  @Query(() => [AnalyticsRecordType], { description: 'GET /projects/{project_id}/content/{id}/analytics' })
  contentAnalytics(@Ctx() { ctx, actions }: GraphqlContext, @Arg('project_id', () => Int) projectId: number, @Arg('id', () => ID) id: string, @queryArg() query?: AnalyticsQueryInput) {
    return actions.analytics.content(ctx, String(projectId), id, restQuery(query));
  }

  @Query(() => [AnalyticsRecordType], { description: 'GET /organization/analytics' })
  organizationAnalytics(@Ctx() { ctx, actions }: GraphqlContext, @queryArg() query?: AnalyticsQueryInput) {
    return actions.analytics.organization(ctx, restQuery(query));
  }

  @Query(() => [ProjectAnalyticsRowType], { description: 'GET /projects/analytics' })
  projectsAnalytics(@Ctx() { ctx, actions }: GraphqlContext, @queryArg() query?: AnalyticsQueryInput, @pageArg() pagination?: PaginationInput) {
    return actions.analytics.projects(ctx, restQuery(query, pagination));
  }

  @Query(() => [AnalyticsRecordType], { description: 'GET /projects/{id}/analytics' })
  projectAnalytics(@Ctx() { ctx, actions }: GraphqlContext, @Arg('project_id', () => Int) projectId: number, @queryArg() query?: AnalyticsQueryInput) {
    return actions.analytics.project(ctx, String(projectId), restQuery(query));
  }

  @Query(() => [ContentAnalyticsRowType], { description: 'GET /projects/{project_id}/content/analytics' })
  topContentAnalytics(@Ctx() { ctx, actions }: GraphqlContext, @Arg('project_id', () => Int) projectId: number, @queryArg() query?: AnalyticsQueryInput, @pageArg() pagination?: PaginationInput) {
    return actions.analytics.topContent(ctx, String(projectId), restQuery(query, pagination));
  }

  @Query(() => [AdAnalyticsRowType], { description: 'GET /projects/{project_id}/ads/analytics' })
  adsAnalytics(@Ctx() { ctx, actions }: GraphqlContext, @Arg('project_id', () => Int) projectId: number, @queryArg() query?: AnalyticsQueryInput, @pageArg() pagination?: PaginationInput) {
    return actions.analytics.ads(ctx, String(projectId), restQuery(query, pagination));
  }

  @Query(() => [AdAnalyticsRecordType], { description: 'GET /projects/{project_id}/ads/{id}/analytics' })
  adAnalytics(@Ctx() { ctx, actions }: GraphqlContext, @Arg('project_id', () => Int) projectId: number, @Arg('id', () => Int) id: number, @queryArg() query?: AnalyticsQueryInput) {
    return actions.analytics.ad(ctx, String(projectId), String(id), restQuery(query));
  }
}
