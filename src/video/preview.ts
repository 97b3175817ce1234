// The preview operations: a short sample sentence, spoken by the project's voice (espeak-ng's for its language when it
// has none, the fastest), rendered with the given settings into a ≤ 5 s mp4 and a PNG frame, served under /media/.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'koa';
import { z } from 'zod';
import { principalOf, reachableProject } from '../http/auth.ts';
import { baseUrlOf } from '../http/public.ts';
import { layeredVideoSettings } from '../generation/videoPlan.ts';
import { createLimit } from '../media/limit.ts';
import { defaultVideoSettings, videoSettingsSchema, type VideoSettings } from '../player/videoSettings.ts';
import { settingsOf } from '../projects/readModel.ts';
import { speakable } from '../speech/normalize.ts';
import type { Services } from '../services.ts';
import { camelKeys } from '../shared/caseMapping.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { templateSettings } from '../videoTemplates/commands.ts';
import { findVideoTemplate } from '../videoTemplates/readModel.ts';
import { checkVideoTemplateReference } from '../videoTemplates/reference.ts';
import type { EngineVoice } from '../media/synthesizer.ts';
import type { Voice } from '../voices/catalogue.ts';
import { VideoRenderError } from './errors.ts';
import type { TimedWord, VideoRenderer } from './port.ts';

/** A preview lasts at most this long: the sample is cut there. */
export const PREVIEW_MAX_MS = 5000;
/** Preview files are kept this long, then removed by a later preview. */
const KEEP_MS = 60 * 60 * 1000;
/** Renders are CPU-heavy: previews of one process take turns beyond this many. */
const limit = createLimit(2);

const DEFAULT_SAMPLE = 'Every story, read aloud and captioned word by word.';

const extra = {
  sample_text: z.string().trim().min(1).max(200).optional().describe('What the preview says; a short English sentence when left out'),
  size: z.string().trim().min(1).max(50).optional().describe("The name of one of the settings' `sizes`; the first enabled one when left out"),
};
export const projectPreviewBody = videoSettingsSchema.extend(extra).strict().meta({ id: 'VideoSettingsPreviewRequest' });
export const templatePreviewBody = templateSettings.extend(extra).strict().meta({ id: 'VideoSettingsTemplatePreviewRequest' });

export const previewWire = z
  .object({
    video_url: z.string().describe('The mp4 (H.264 + AAC), at most 5 s'),
    image_url: z.string().describe('A PNG frame of it'),
    duration: z.number().int().describe('Milliseconds'),
    size: z.object({ name: z.string(), width: z.number().int(), height: z.number().int() }),
    words: z.array(z.object({ text: z.string(), start_time: z.number().int(), duration: z.number().int() })).describe('The sample\'s words, timed from the start'),
    fonts: z.array(z.string()).describe('The font files the captions were drawn with'),
  })
  .meta({ id: 'VideoSettingsPreview' });
export type PreviewWire = z.infer<typeof previewWire>;

type PreviewBody = z.infer<typeof projectPreviewBody>;

const splitBody = ({ sample_text, size, ...settings }: PreviewBody) => ({ sampleText: sample_text, size, settings });

function chooseSize(settings: VideoSettings, name: string | undefined) {
  if (name !== undefined) {
    const named = settings.sizes.find((size) => size.name === name);
    if (!named) throw invalid([{ location: 'size', message: `names none of the sizes (${settings.sizes.map((size) => size.name).join(', ') || 'none'})` }]);
    return named;
  }
  return settings.sizes.find((size) => size.enabled) ?? settings.sizes[0] ?? defaultVideoSettings.sizes[0]!;
}

/** The settings field that named an image or font that could not be used. */
const assetField = (settings: VideoSettings, url: string | undefined) =>
  url === undefined ? 'settings' : url === settings.logoImageUrl ? 'logo_image_url' : settings.textFonts.includes(url) ? 'text_fonts' : 'settings';

export function videoPreviewActions(services: Services, renderer: VideoRenderer) {
  const { read, voices, synthesizer, mediaDir, publicBaseUrl } = services;
  const previewsDir = path.join(mediaDir, 'previews');

  /** The project's body voice, else espeak-ng's voice of the language (fast enough for a settings screen), else its closest voice (Mandarin's is Kokoro's). */
  function voiceFor(language: string, voiceId: number | null | undefined): EngineVoice {
    const chosen = voiceId ? voices.byId(voiceId) : undefined;
    const base = (voice: Voice) => voice.language.code.split('_')[0] === language.split('_')[0];
    const espeak = voices.voices.filter((voice) => voice.engine === 'espeak-ng');
    const voice = chosen ?? espeak.find((each) => each.language.code === language) ?? espeak.find(base) ?? voices.defaultFor(language) ?? voices.defaultFor('en_US') ?? voices.voices[0];
    if (!voice) throw new VideoRenderError('ffmpeg', 'no voice is installed');
    return voice;
  }

  async function sweep() {
    const entries = await readdir(previewsDir).catch(() => [] as string[]);
    await Promise.all(
      entries.map(async (entry) => {
        const info = await stat(path.join(previewsDir, entry)).catch(() => null);
        if (info && Date.now() - info.mtimeMs > KEEP_MS) await rm(path.join(previewsDir, entry), { recursive: true, force: true });
      }),
    );
  }

  async function preview(ctx: Context, settings: VideoSettings, language: string, voice: EngineVoice, body: ReturnType<typeof splitBody>): Promise<PreviewWire> {
    const size = chooseSize(settings, body.size);
    const id = randomUUID();
    const dir = path.join(previewsDir, id);
    await mkdir(dir, { recursive: true });
    void sweep();
    const spoken = await synthesizer.speak(speakable(body.sampleText ?? DEFAULT_SAMPLE), voice, path.join(dir, 'sample.wav'));
    const durationMs = Math.min(Math.round(spoken.durationMs), PREVIEW_MAX_MS);
    const words: TimedWord[] = spoken.words
      .filter((word) => word.start_time < durationMs)
      .map((word) => ({ text: word.text, start_time: Math.round(word.start_time), duration: Math.round(Math.min(word.duration, durationMs - word.start_time)) }));
    // A sample of marks alone ('-', '…', a zero-width space) is spoken as silence: there would be nothing to show.
    if (words.length === 0 || durationMs === 0) {
      await rm(dir, { recursive: true, force: true });
      throw invalid([{ location: 'sample_text', message: 'has no word to speak: give a sentence' }]);
    }
    // The poster shows the middle of a word past half the sample: karaoke and reveal are mid-scene there.
    const shown = words[Math.floor(words.length * 0.6)];
    const rendered = await limit(() =>
      renderer
        .render({
          audioPath: spoken.wavPath,
          durationMs,
          segments: [{ content_type: 'text', section: null, text: body.sampleText ?? DEFAULT_SAMPLE, image_url: null, video_url: null, start_time: 0, duration: durationMs, words }],
          settings,
          featureImageUrl: null,
          language,
          size,
          outPath: path.join(dir, 'video.mp4'),
          posterPath: path.join(dir, 'poster.png'),
          posterAtMs: shown ? shown.start_time + shown.duration / 2 : durationMs / 2,
        })
        .catch((error: unknown) => {
          if (error instanceof VideoRenderError && (error.reason === 'asset' || error.reason === 'refused')) throw invalid([{ location: assetField(settings, error.source), message: error.message }]);
          throw error;
        }),
    );
    await rm(spoken.wavPath, { force: true });
    const base = `${baseUrlOf(ctx, publicBaseUrl)}/media/previews/${id}`;
    return {
      video_url: `${base}/video.mp4`,
      image_url: `${base}/poster.png`,
      duration: durationMs,
      size: { name: size.name, width: size.width, height: size.height },
      words,
      fonts: rendered.fonts,
    };
  }

  return {
    /** Project settings, then the template named (in the body or the project's), then the body's fields. */
    async project(ctx: Context, projectRef: string | undefined, input: unknown): Promise<PreviewWire> {
      const project = await reachableProject(ctx, read, projectRef);
      const body = splitBody(parseOrThrow(projectPreviewBody, input ?? {}));
      await checkVideoTemplateReference(read, project.organizationId, body.settings);
      const own = camelKeys<Partial<VideoSettings>>(body.settings);
      const templateId = own.template === undefined ? settingsOf(project, 'video').template?.id : own.template?.id;
      const template = templateId ? await findVideoTemplate(read, project.organizationId, templateId) : null;
      const settings = layeredVideoSettings(settingsOf(project, 'video'), template?.settings ?? null, own);
      return preview(ctx, settings, project.language, voiceFor(project.language, project.body?.voice_id), body);
    },

    /** Default settings, then the template's, then the body's fields; spoken in English. */
    async template(ctx: Context, ref: string | undefined, input: unknown): Promise<PreviewWire> {
      const { organizationId } = principalOf(ctx);
      const id = /^\d{1,12}$/.test(ref ?? '') ? Number(ref) : NaN;
      const template = Number.isSafeInteger(id) ? await findVideoTemplate(read, organizationId, id) : null;
      if (!template) throw notFound();
      const body = splitBody(parseOrThrow(templatePreviewBody, input ?? {}));
      const settings = layeredVideoSettings(defaultVideoSettings, template.settings, camelKeys<Partial<VideoSettings>>(body.settings));
      return preview(ctx, settings, 'en_US', voiceFor('en_US', null), body);
    },
  };
}
