// A project's video settings (the look of generated video and of the video player): wire schema and defaults.
import { z } from 'zod';
import type { CamelKeys } from '../shared/caseMapping.ts';
import { httpUrl, positiveId } from '../shared/wireSchemas.ts';
import { cssBackground, cssColor } from './colors.ts';

const animations = ['none', 'fade', 'zoom-in', 'zoom-out', 'slide-up', 'slide-down', 'slide-left', 'slide-right', 'pop'] as const;
const alignments = ['start', 'center', 'end'] as const;

/** Shadows and strokes are CSS values; characters that could end a declaration or a tag are refused. */
const cssValue = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => !/[;{}<>\\\u0000-\u001f]/.test(value), 'must be a CSS value without ; { } < > \\ or control characters');

const isFont = (value: string) => {
  if (/^[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,99}$/u.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && /\.(?:ttf|otf)$/i.test(url.pathname) && value.length <= 2048;
  } catch {
    return false;
  }
};
const font = z.string().trim().refine(isFont, 'must be a font name or an https URL of a .ttf or .otf file');

/**
 * A side of a video frame in pixels: an even number from 16 to 3840 (4K UHD), for projects, templates, items and
 * previews alike. Even: H.264 in 4:2:0, what every player decodes, has no odd sides.
 */
export const videoDimension = z
  .number()
  .int()
  .min(16)
  .max(3840)
  .multipleOf(2, 'must be even: H.264 video in 4:2:0 has no odd sides')
  .describe('Pixels: an even number from 16 to 3840');

/** One frame size videos are made in; the WordPress plugin asks for no video when a project has none. */
export const videoSize = z
  .object({
    name: z.string().trim().min(1).max(50),
    width: videoDimension,
    height: videoDimension,
    enabled: z.boolean(),
  })
  .meta({ id: 'VideoSize' });

export const videoSettingsSchema = z
  .object({
    enabled: z.boolean(),
    logo_image_url: httpUrl.nullable(),
    logo_image_position: z.enum(['top-left', 'top-right']),
    background_color: cssBackground,
    text_transform: z.enum(['none', 'uppercase', 'lowercase', 'titlecase']),
    text_background_color: cssColor,
    text_color: cssColor,
    text_secondary_color: cssColor.nullable(),
    text_highlight_color: cssColor.nullable(),
    text_highlight_secondary_color: cssColor.nullable(),
    text_highlight_background_color: cssColor,
    text_shadow: cssValue(200),
    text_highlight_shadow: cssValue(200).nullable(),
    text_stroke: cssValue(200),
    text_highlight_stroke: cssValue(200).nullable(),
    text_fonts: z.array(font).max(10),
    text_font_size: z.number().int().min(30).max(90),
    text_lines: z.number().int().min(1).max(5).nullable(),
    text_words: z.number().int().min(1).max(100).nullable(),
    text_horizontal_align: z.enum(alignments),
    text_vertical_align: z.enum(alignments),
    text_animation: z.enum(['classic', 'reveal', 'karaoke', 'pop']),
    entrance_animation: z.enum(animations),
    exit_animation: z.enum(animations),
    waveform_color: cssColor,
    content_image_enabled: z.boolean(),
    image_extraction_enabled: z.boolean(),
    pan_and_zoom_enabled: z.boolean(),
    audio_and_waveform_enabled: z.boolean(),
    text_captions_enabled: z.boolean(),
    playback_mode: z.enum(['cycle', 'space-evenly', 'follow-article']),
    cycle_time: z.number().int().min(1000).max(60_000),
    variants: z.array(z.enum(['article', 'summary'])).max(2),
    sizes: z
      .array(videoSize)
      .max(10)
      .refine((sizes) => new Set(sizes.map((size) => size.name)).size === sizes.length, 'size names must be unique'),
    /** A video settings template (`/video_settings_templates`) of the project's organization, or none. */
    template: z.object({ id: positiveId }).nullable(),
    /** Corner radii in pixels of the caption box and of the highlighted word's box. */
    text_background_radius: z.number().min(0).max(200),
    text_highlight_background_radius: z.number().min(0).max(200),
    /** Width of the caption block, in percent of the frame's width. */
    text_width: z.number().min(10).max(100),
    /** Shifts of the caption block from its aligned place, in percent of the frame's width and height. */
    text_horizontal_offset: z.number().min(-50).max(50),
    text_vertical_offset: z.number().min(-50).max(50),
  })
  .partial();

export type VideoSettingsChanges = CamelKeys<z.infer<typeof videoSettingsSchema>>;
export type VideoSettings = Required<VideoSettingsChanges>;

export const defaultVideoSettings: VideoSettings = {
  enabled: false,
  logoImageUrl: null,
  logoImagePosition: 'top-right',
  backgroundColor: '#000000',
  textTransform: 'none',
  textBackgroundColor: 'rgba(0, 0, 0, 0.6)',
  textColor: '#ffffff',
  textSecondaryColor: null,
  textHighlightColor: '#facc15',
  textHighlightSecondaryColor: null,
  textHighlightBackgroundColor: 'transparent',
  textShadow: 'none',
  textHighlightShadow: null,
  textStroke: 'none',
  textHighlightStroke: null,
  textFonts: ['Noto Sans'],
  textFontSize: 48,
  textLines: null,
  textWords: null,
  textHorizontalAlign: 'center',
  textVerticalAlign: 'end',
  textAnimation: 'classic',
  entranceAnimation: 'fade',
  exitAnimation: 'fade',
  waveformColor: '#ffffff',
  contentImageEnabled: true,
  imageExtractionEnabled: true,
  panAndZoomEnabled: true,
  audioAndWaveformEnabled: true,
  textCaptionsEnabled: true,
  playbackMode: 'cycle',
  cycleTime: 5000,
  variants: ['article'],
  // 1280 px on the long side: the size a 4-line caption stays legible in, at half the encoding time of 1920.
  sizes: [
    { name: 'landscape', width: 1280, height: 720, enabled: true },
    { name: 'square', width: 1080, height: 1080, enabled: true },
    { name: 'portrait', width: 720, height: 1280, enabled: true },
  ],
  template: null,
  textBackgroundRadius: 8,
  textHighlightBackgroundRadius: 4,
  textWidth: 90,
  textHorizontalOffset: 0,
  textVerticalOffset: 0,
};
