// The project's and its settings resources' wire formats: zod schemas (source of the OpenAPI document) and mappings.
import { z } from 'zod';
import { snakeKeys } from '../shared/caseMapping.ts';
import { timestamp, urlText } from '../shared/wireResponses.ts';
import { embedSettingsSchema } from '../player/embedSettings.ts';
import { extractionSettingsSchema } from '../extraction/settings.ts';
import { playerSettingsSchema, withAnalyticsUrl, type PlayerSettings } from '../player/settings.ts';
import { videoSettingsSchema } from '../player/videoSettings.ts';
import type { SettingsResource } from './events.ts';
import { settingsOf, type ProjectView } from './readModel.ts';

const section = z.object({ enabled: z.boolean(), voice_id: z.number().int().nullable() });

export const projectWire = z
  .object({
    id: z.number().int().min(1),
    name: z.string(),
    language: z.string().describe('Default language, such as `en_US`'),
    language_data: z.object({ code: z.string(), name: z.string() }),
    environment: z.enum(['production', 'staging']).nullable(),
    logo_color: z.string().nullable(),
    content_total_count: z.number().int().min(0),
    content_updated: timestamp.nullable(),
    title: section,
    summary: section,
    body: section,
    background_track: z.object({ enabled: z.boolean(), track: z.object({ id: z.number().int() }).nullable() }),
    auto_publish_enabled: z.boolean(),
    auto_video_publish_enabled: z.boolean(),
    time_zone: z.string(),
    avatar_url: urlText.nullable(),
    pause_after_title_segments_seconds: z.number(),
    pause_after_segments_seconds: z.number(),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'Project' });
export type ProjectWire = z.infer<typeof projectWire>;

const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** A section as stored may lack what an update left out; the answer always carries both fields. */
const sectionToWire = (stored: { enabled?: boolean; voice_id?: number | null }) => ({ enabled: stored.enabled ?? true, voice_id: stored.voice_id ?? null });

export function projectToWire(project: ProjectView, stats: { total: number; lastUpdated: string | null }): ProjectWire {
  return {
    id: project.id,
    name: project.name,
    language: project.language,
    language_data: { code: project.language, name: displayNames.of(project.language.replace('_', '-')) ?? project.language },
    environment: project.environment ?? null,
    logo_color: project.logoColor ?? null,
    content_total_count: stats.total,
    content_updated: stats.lastUpdated,
    title: sectionToWire(project.title),
    summary: sectionToWire(project.summary),
    body: sectionToWire(project.body),
    background_track: { enabled: project.backgroundTrack.enabled ?? false, track: project.backgroundTrack.track ?? null },
    auto_publish_enabled: project.autoPublishEnabled,
    auto_video_publish_enabled: project.autoVideoPublishEnabled,
    time_zone: project.timeZone,
    avatar_url: project.avatarUrl ?? null,
    pause_after_title_segments_seconds: project.pauseAfterTitleSegmentsSeconds,
    pause_after_segments_seconds: project.pauseAfterSegmentsSeconds,
    created: project.created,
    updated: project.updated,
  };
}

/**
 * The settings resources as answered: every field the request schema knows, required, so a field added to
 * the request schema (and to the defaults) appears in the answer and in the document at once.
 */
const themes = {
  light_theme: playerSettingsSchema.shape.light_theme.unwrap().required(),
  dark_theme: playerSettingsSchema.shape.dark_theme.unwrap().required(),
  video_theme: playerSettingsSchema.shape.video_theme.unwrap().required(),
};
export const settingsWire = {
  player: playerSettingsSchema.required().extend(themes).meta({ id: 'PlayerSettings' }),
  video: videoSettingsSchema.required().meta({ id: 'VideoSettings' }),
  embed: embedSettingsSchema.required().meta({ id: 'EmbedSettings' }),
  extraction: extractionSettingsSchema.required().meta({ id: 'ContentExtractionSettings' }),
} satisfies Record<SettingsResource, z.ZodType>;
export type SettingsWire = { [R in SettingsResource]: z.infer<(typeof settingsWire)[R]> };

/** A settings resource as `GET`/`PUT /projects/{p}/<resource>_settings` answer it: every field, defaults filled in. */
export const settingsToWire = <R extends SettingsResource>(project: ProjectView, resource: R, baseUrl: string) => {
  const settings = settingsOf(project, resource);
  return snakeKeys(resource === 'player' ? withAnalyticsUrl(settings as PlayerSettings, baseUrl) : settings) as SettingsWire[R];
};
