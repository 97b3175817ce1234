// The video settings templates every organization starts with, as the original service's do (the WordPress plugin's
// template picker lists them): `Default` and `Social`, ordinary templates its users may change or delete.
import type { VideoTemplateWireFields } from './commands.ts';

type BuiltInTemplate = Omit<VideoTemplateWireFields, 'slug'> & { slug: string };

export const builtInVideoTemplates: readonly BuiltInTemplate[] = [
  {
    name: 'Default',
    slug: 'default',
    // The service's own defaults, written out: a template that names them keeps a project's look whatever it changed.
    settings: {
      background_color: '#000000',
      text_color: '#ffffff',
      text_background_color: 'rgba(0, 0, 0, 0.6)',
      text_highlight_color: '#facc15',
      text_font_size: 48,
      text_animation: 'classic',
      text_vertical_align: 'end',
      waveform_color: '#ffffff',
      audio_and_waveform_enabled: true,
      text_captions_enabled: true,
      playback_mode: 'cycle',
      variants: ['article'],
      sizes: [
        { name: 'landscape', width: 1280, height: 720, enabled: true },
        { name: 'square', width: 1080, height: 1080, enabled: true },
        { name: 'portrait', width: 720, height: 1280, enabled: true },
      ],
    },
  },
  {
    name: 'Social',
    slug: 'social',
    // For feeds watched without sound on a phone: upright and square frames, large words lit as they are read, mid-frame.
    settings: {
      background_color: 'linear-gradient(135deg, #1e3a8a, #7c3aed)',
      text_color: '#ffffff',
      text_background_color: 'transparent',
      text_highlight_color: '#facc15',
      text_stroke: '3px #000000',
      text_font_size: 64,
      text_lines: 2,
      text_animation: 'karaoke',
      text_vertical_align: 'center',
      entrance_animation: 'pop',
      exit_animation: 'fade',
      waveform_color: '#facc15',
      audio_and_waveform_enabled: true,
      text_captions_enabled: true,
      playback_mode: 'follow-article',
      variants: ['article'],
      sizes: [
        { name: 'portrait', width: 720, height: 1280, enabled: true },
        { name: 'square', width: 1080, height: 1080, enabled: true },
        { name: 'landscape', width: 1280, height: 720, enabled: false },
      ],
    },
  },
];
