// Which videos a generation makes: the item's effective video settings (project, then template, then item) and the
// (variant, size) pairs they ask for.
import type { EventStore, RecordedEvent } from '../infrastructure/eventStore/port.ts';
import { camelKeys } from '../shared/caseMapping.ts';
import { defaultVideoSettings, type VideoSettings } from '../player/videoSettings.ts';
import { applySettingsChanges } from '../projects/readModel.ts';
import type { ProjectEvent } from '../projects/events.ts';
import type { ContentWireFields } from '../content/commands.ts';
import { videoTemplateStream, type VideoTemplateEvent } from '../videoTemplates/events.ts';

/** What an item's own `video_settings` may say, as the content schema accepts it. */
export type ItemVideoSettings = NonNullable<ContentWireFields['video_settings']>;

export type VideoVariant = 'article' | 'summary';
export interface VideoSize {
  name: string;
  width: number;
  height: number;
}
export interface VideoRequest {
  variant: VideoVariant;
  size: VideoSize;
}

/** The project's video settings as its stream left them, defaults for the fields never set. */
export function projectVideoSettingsOf(projectEvents: RecordedEvent[]): VideoSettings {
  let settings = defaultVideoSettings;
  for (const event of projectEvents as unknown as ProjectEvent[]) {
    if (event.type === 'VideoSettingsUpdated') settings = applySettingsChanges(settings, event.data.changes);
  }
  return settings;
}

/** A template's settings (wire names, as stored), or null when the template is missing, deleted or another organization's. */
export async function templateSettingsOf(events: EventStore, templateId: number, organizationId: number): Promise<Record<string, unknown> | null> {
  let settings: Record<string, unknown> | null = null;
  for (const event of (await events.readStream(videoTemplateStream(templateId))) as unknown as VideoTemplateEvent[]) {
    if (event.type === 'VideoTemplateCreated') settings = event.data.organizationId === organizationId ? event.data.fields.settings : null;
    if (event.type === 'VideoTemplateUpdated' && settings && event.data.changes.settings) settings = event.data.changes.settings;
    if (event.type === 'VideoTemplateDeleted') settings = null;
  }
  return settings;
}

const isVariant = (value: string): value is VideoVariant => value === 'article' || value === 'summary';

/**
 * Settings in layers: the base (the project's, or the defaults), then the template's fields (wire names, as
 * stored), then the caller's own changes. Generation and the preview routes both go through here.
 */
export function layeredVideoSettings(base: VideoSettings, template: Record<string, unknown> | null, own: Partial<VideoSettings>): VideoSettings {
  const templated = template ? applySettingsChanges(base, camelKeys<Partial<VideoSettings>>(template)) : base;
  return applySettingsChanges(templated, own);
}

/**
 * Project settings, then the template's fields, then what the item says for itself. The WordPress plugin sends
 * `{enabled, variants, sizes, template}` with every post; an item's size without `enabled` is enabled.
 */
export function effectiveVideoSettings(project: VideoSettings, template: Record<string, unknown> | null, item: ItemVideoSettings | null): VideoSettings {
  return layeredVideoSettings(project, template, {
    enabled: item?.enabled,
    variants: item?.variants?.filter(isVariant),
    sizes: item?.sizes?.map((size) => ({ ...size, enabled: size.enabled ?? true })),
  });
}

/** One video per enabled size per variant; none unless video is enabled and both lists are non-empty. */
export function videoRequestsOf(settings: VideoSettings, hasSummary: boolean): VideoRequest[] {
  if (!settings.enabled) return [];
  const sizes = settings.sizes.filter((size) => size.enabled).map(({ name, width, height }) => ({ name, width, height }));
  const variants = [...new Set(settings.variants)].filter((variant) => variant === 'article' || hasSummary);
  return variants.flatMap((variant) => sizes.map((size) => ({ variant, size })));
}

/** The item's template if it names one, else the project's; its settings between the project's and the item's. */
export async function videoSettingsOfItem(
  events: EventStore,
  projectEvents: RecordedEvent[],
  item: ItemVideoSettings | null | undefined,
): Promise<VideoSettings> {
  const project = projectVideoSettingsOf(projectEvents);
  const created = (projectEvents as unknown as ProjectEvent[]).find((event) => event.type === 'ProjectCreated');
  const templateId = item?.template?.id ?? project.template?.id;
  const template = templateId && created ? await templateSettingsOf(events, templateId, created.data.organizationId) : null;
  return effectiveVideoSettings(project, template, item ?? null);
}
