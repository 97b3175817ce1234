// A project's player settings: what clients may send (wire format), and what a project has until it does.
import { z } from 'zod';
import { EVENTS_PATH } from '../analytics/playerEvents.ts';
import type { CamelKeys } from '../shared/caseMapping.ts';
import { httpUrl } from '../shared/wireSchemas.ts';
import { cssBackground, cssColor } from './colors.ts';

/** The styles the web player draws; any other value hides it. */
const playerStyles = ['small', 'standard', 'large', 'screen', 'video'] as const;

const themeSchema = z.object({
  text_color: cssColor,
  background_color: cssBackground,
  icon_color: cssColor,
  highlight_color: cssColor,
  word_highlight_color: cssColor,
});
export type Theme = z.infer<typeof themeSchema>;

const text = (max: number) => z.string().trim().min(1).max(max);

/** `auto`, `segments`, `tracks`, or `seconds` with optional back/forward steps: `seconds-15`, `seconds-15-30` (1 to 99 s). */
const skipButtonStyle = z
  .string()
  .refine((value) => /^(?:auto|segments|tracks|seconds(?:-[1-9]\d?){0,2})$/.test(value), 'must be auto, segments, tracks, seconds, seconds-<back> or seconds-<back>-<forward> (1 to 99 seconds)');

export const playerSettingsSchema = z
  .object({
    player_style: z.enum(playerStyles),
    player_title: text(200).nullable(),
    call_to_action: text(200).nullable(),
    image_url: httpUrl.nullable(),
    theme: z.enum(['light', 'dark', 'auto']),
    /** Themes change field by field: a PUT of `{"dark_theme": {"text_color": ...}}` keeps its other colours. */
    dark_theme: themeSchema.partial(),
    light_theme: themeSchema.partial(),
    video_theme: themeSchema.partial(),
    title_enabled: z.boolean(),
    image_enabled: z.boolean(),
    persistent_ad_image: z.boolean(),
    widget_style: z.enum(['none', ...playerStyles]),
    widget_position: z.enum(['auto', 'left', 'center', 'right']),
    segment_playback_enabled: z.boolean(),
    segment_highlights_enabled: z.boolean(),
    word_highlights_enabled: z.boolean(),
    skip_button_style: skipButtonStyle,
    intro_url: httpUrl.nullable(),
    outro_url: httpUrl.nullable(),
    intro_outro_enabled: z.boolean(),
    download_button_enabled: z.boolean(),
    logo_icon_enabled: z.boolean(),
    analytics_enabled: z.boolean(),
    analytics_url: httpUrl.nullable(),
    analytics_id: z.number().int().min(1).nullable(),
    segment_limit: z.number().int().min(1).max(10_000).nullable(),
  })
  .partial();

export type PlayerSettingsChanges = CamelKeys<z.infer<typeof playerSettingsSchema>>;
type Themed = 'darkTheme' | 'lightTheme' | 'videoTheme';
export type PlayerSettings = Required<Omit<PlayerSettingsChanges, Themed>> & Record<Themed, Theme>;

/** What the web player draws out of the box: its own standard look, following the reader's light or dark mode. */
export const defaultPlayerSettings: PlayerSettings = {
  playerStyle: 'standard',
  playerTitle: null,
  callToAction: null,
  imageUrl: null,
  theme: 'auto',
  lightTheme: {
    text_color: '#111111',
    background_color: '#f5f5f5',
    icon_color: 'rgba(0, 0, 0, 0.8)',
    highlight_color: '#eeeeee',
    word_highlight_color: '#c7dcfb',
  },
  darkTheme: {
    text_color: '#f5f5f5',
    background_color: '#1f1f1f',
    icon_color: 'rgba(255, 255, 255, 0.85)',
    highlight_color: '#333333',
    word_highlight_color: '#3d5a80',
  },
  videoTheme: {
    text_color: '#ffffff',
    background_color: '#000000',
    icon_color: '#ffffff',
    highlight_color: 'rgba(255, 255, 255, 0.2)',
    word_highlight_color: '#facc15',
  },
  titleEnabled: true,
  imageEnabled: true,
  persistentAdImage: false,
  widgetStyle: 'standard',
  widgetPosition: 'auto',
  segmentPlaybackEnabled: true,
  segmentHighlightsEnabled: true,
  wordHighlightsEnabled: false,
  skipButtonStyle: 'seconds-15-30',
  introUrl: null,
  outroUrl: null,
  introOutroEnabled: false,
  downloadButtonEnabled: false,
  logoIconEnabled: true,
  analyticsEnabled: true,
  analyticsUrl: null,
  analyticsId: null,
  segmentLimit: null,
};

/**
 * The settings as answered: `analytics_url` is where the player posts its events while analytics are on, the
 * service's own endpoint unless one was set, and null while they are off (the player then posts nothing).
 */
export const withAnalyticsUrl = (settings: PlayerSettings, baseUrl: string): PlayerSettings => ({
  ...settings,
  analyticsUrl: settings.analyticsEnabled ? (settings.analyticsUrl ?? `${baseUrl}${EVENTS_PATH}`) : null,
});
