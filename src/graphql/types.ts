// GraphQL object and input types; field names are the spec's wire names (the zod schemas in src/*/wire.ts), so answers are the REST shapes.
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType('MediaFile')
export class MediaFileType {
  @Field(() => Int) id!: number;
  @Field(() => String) content_type!: string;
  @Field(() => String) url!: string;
  @Field(() => Int) duration!: number;
  @Field(() => String) variant!: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Video files only: {name, width, height}' }) video_size?: object;
}

@ObjectType('ContentItem')
export class ContentItemType {
  @Field(() => ID) id!: string;
  @Field(() => Int) legacy_id!: number;
  @Field(() => String) type!: string;
  @Field(() => String) status!: string;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) summary!: string | null;
  @Field(() => String, { nullable: true }) body!: string | null;
  @Field(() => String, { nullable: true }) audio_url!: string | null;
  @Field(() => Boolean) title_enabled!: boolean;
  @Field(() => Boolean) body_enabled!: boolean;
  @Field(() => Boolean) summary_enabled!: boolean;
  @Field(() => Boolean) summary_title_enabled!: boolean;
  @Field(() => String, { nullable: true }) source_id!: string | null;
  @Field(() => String, { nullable: true }) source_url!: string | null;
  @Field(() => String, { nullable: true }) author!: string | null;
  @Field(() => [String]) tags!: string[];
  @Field(() => [Int]) access_tiers!: number[];
  @Field(() => String, { nullable: true }) image_url!: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata!: object | null;
  @Field(() => Boolean) published!: boolean;
  @Field(() => Boolean) video_published!: boolean;
  @Field(() => String, { nullable: true }) publish_date!: string | null;
  @Field(() => Boolean) ads_enabled!: boolean;
  @Field(() => Boolean) auto_segment_updates_enabled!: boolean;
  @Field(() => Boolean) ai_summary_updates_enabled!: boolean;
  @Field(() => String, { nullable: true }) ai_summary_prompt!: string | null;
  @Field(() => String, { nullable: true }) language!: string | null;
  @Field(() => Int, { nullable: true }) title_voice_id!: number | null;
  @Field(() => Int, { nullable: true }) summary_voice_id!: number | null;
  @Field(() => Int, { nullable: true }) body_voice_id!: number | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) background_track!: object | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) feature_image!: object | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) feature_video!: object | null;
  @Field(() => GraphQLJSONObject) summarization_settings!: object;
  @Field(() => GraphQLJSONObject, { nullable: true }) video_settings!: object | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) preprocessing_settings!: object | null;
  @Field(() => [GraphQLJSONObject]) audio_with_intro_outro!: object[];
  @Field(() => GraphQLJSONObject) summarization!: object;
  @Field(() => [MediaFileType]) audio!: MediaFileType[];
  @Field(() => [MediaFileType]) video!: MediaFileType[];
  @Field(() => [GraphQLJSONObject], { nullable: true }) segments!: object[] | null;
  @Field(() => Int, { nullable: true }) duration!: number | null;
  @Field(() => String) preview_token!: string;
  @Field(() => String) created!: string;
  @Field(() => String) updated!: string;
}

@ObjectType('Project')
export class ProjectType {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) language!: string;
  @Field(() => GraphQLJSONObject) language_data!: object;
  @Field(() => String, { nullable: true }) environment!: string | null;
  @Field(() => String, { nullable: true }) logo_color!: string | null;
  @Field(() => Int) content_total_count!: number;
  @Field(() => String, { nullable: true }) content_updated!: string | null;
  @Field(() => GraphQLJSONObject) title!: object;
  @Field(() => GraphQLJSONObject) summary!: object;
  @Field(() => GraphQLJSONObject) body!: object;
  @Field(() => GraphQLJSONObject) background_track!: object;
  @Field(() => Boolean) auto_publish_enabled!: boolean;
  @Field(() => Boolean) auto_video_publish_enabled!: boolean;
  @Field(() => String) time_zone!: string;
  @Field(() => String, { nullable: true }) avatar_url!: string | null;
  @Field(() => Number) pause_after_title_segments_seconds!: number;
  @Field(() => Number) pause_after_segments_seconds!: number;
  @Field(() => String) created!: string;
  @Field(() => String) updated!: string;
}

/** The list filters of `GET /projects/{p}/content`, one field per `filter[...]` parameter. */
@InputType('ContentFilter')
export class ContentFilterInput {
  @Field(() => String, { nullable: true }) id?: string;
  @Field(() => String, { nullable: true }) source_id?: string;
  @Field(() => String, { nullable: true }) source_url?: string;
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true }) body?: string;
  @Field(() => Boolean, { nullable: true }) published?: boolean;
  @Field(() => Boolean, { nullable: true }) video_published?: boolean;
  @Field(() => [String], { nullable: true }) statuses?: string[];
  @Field(() => String, { nullable: true }) created_from?: string;
  @Field(() => String, { nullable: true }) created_to?: string;
  @Field(() => String, { nullable: true }) updated_from?: string;
  @Field(() => String, { nullable: true }) updated_to?: string;
  @Field(() => String, { nullable: true }) publish_date_from?: string;
  @Field(() => String, { nullable: true }) publish_date_to?: string;
}

@InputType('Pagination')
export class PaginationInput {
  @Field(() => Int, { nullable: true }) limit?: number;
  @Field(() => Int, { nullable: true }) offset?: number;
}

@InputType('ContentOrder')
export class ContentOrderInput {
  @Field(() => String, { nullable: true }) by?: string;
  @Field(() => String, { nullable: true }) dir?: string;
}
