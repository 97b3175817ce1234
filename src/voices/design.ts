// Voice design without a model that designs voices: the description's words are mapped onto what the installed
// engines can vary (which voice, which espeak-ng variant, how fast), and each candidate speaks a preview.
// With Kokoro installed, gender and British words reach its neural voices too; the mapping is in docs/voices.md.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Synthesizer } from '../media/synthesizer.ts';
import { runTool, tail } from '../media/tool.ts';
import { invalid } from '../shared/errors.ts';
import type { Voice, VoiceCatalogue } from './catalogue.ts';
import { ESPEAK_VARIANTS, type EspeakVariant } from './commands.ts';
import { engineVoiceOf } from './custom.ts';

/** A designed voice before it is kept: a stock voice, an espeak-ng variant and a speed. */
export interface DesignedSettings {
  baseVoiceId: number;
  variant: EspeakVariant | null;
  speed: number;
}

export const DEFAULT_PREVIEW_TEXT =
  'Every morning the newsroom gathers the stories that matter most. This is how this voice would read them to you, one sentence after another.';

const has = (words: Set<string>, ...wanted: string[]) => wanted.some((word) => words.has(word));

/** How fast the description asks for: pace words set it, temper words nudge it. */
function speedOf(words: Set<string>, text: string): number {
  let speed = 1;
  if (has(words, 'slow', 'slowly', 'unhurried', 'leisurely')) speed = /very slow/.test(text) ? 0.7 : 0.85;
  if (has(words, 'fast', 'quick', 'quickly', 'rapid', 'brisk', 'speedy')) speed = /very (fast|quick)/.test(text) ? 1.4 : 1.2;
  if (has(words, 'calm', 'warm', 'soothing', 'gentle', 'relaxed', 'soft', 'mellow')) speed *= 0.93;
  if (has(words, 'energetic', 'lively', 'excited', 'enthusiastic', 'upbeat', 'dynamic')) speed *= 1.1;
  return Math.round(Math.min(2, Math.max(0.5, speed)) * 100) / 100;
}

function genderOf(words: Set<string>): 'female' | 'male' | null {
  if (has(words, 'female', 'woman', 'women', 'girl', 'lady', 'she', 'her', 'feminine', 'grandmother')) return 'female';
  if (has(words, 'male', 'man', 'men', 'boy', 'gentleman', 'he', 'his', 'masculine', 'grandfather')) return 'male';
  return null;
}

/** espeak-ng variants for a gender and an age, best first (f1, m1, grandma and grandpa are its older voices). */
function variantsOf(gender: 'female' | 'male' | null, words: Set<string>): EspeakVariant[] {
  const old = has(words, 'old', 'older', 'elderly', 'aged', 'senior', 'grandmother', 'grandfather', 'gravelly', 'raspy');
  const young = has(words, 'young', 'youthful', 'teen', 'teenage', 'child', 'girl', 'boy', 'bright');
  if (has(words, 'whisper', 'whispering', 'breathy', 'hushed')) return gender === 'male' ? ['whisper'] : ['whisperf'];
  if (has(words, 'robotic', 'robot', 'synthetic', 'mechanical')) return ['klatt'];
  if (gender === 'female') return old ? ['f1', 'grandma'] : young ? ['f4', 'f3', 'f5'] : ['f2', 'f3', 'f5'];
  if (gender === 'male') return old ? ['m1', 'croak', 'grandpa'] : young ? ['m3', 'm7'] : ['m3', 'm2'];
  return ['m3', 'f2'];
}

/** British words ask for en_GB (Kokoro's British voices, else espeak-ng's); everything else English is en_US. */
const languageOf = (words: Set<string>) => (has(words, 'british', 'london', 'uk', 'england', 'scottish') ? 'en_GB' : 'en_US');

/** Up to three candidates for a description, the closest first: the neural voice leads when it fits. */
export function designCandidates(description: string, catalogue: VoiceCatalogue): DesignedSettings[] {
  const text = description.toLowerCase();
  const words = new Set(text.split(/[^a-z]+/).filter(Boolean));
  const gender = genderOf(words);
  const speed = speedOf(words, text);
  const code = languageOf(words);
  const neural = catalogue.voices.find((voice) => voice.engine !== 'espeak-ng' && voice.language.code === code && (gender === null || voice.gender === gender));
  const plain = catalogue.voices.find((voice) => voice.engine === 'espeak-ng' && voice.language.code === code) ?? catalogue.defaultFor('en')!;
  const variants = variantsOf(gender, words);
  const candidates: DesignedSettings[] = [];
  // Variants change how a voice sounds more than the neural voice's pace does: they lead for age and breath words.
  if (neural && !variants.some((variant) => ['f1', 'm1', 'whisper', 'whisperf', 'klatt'].includes(variant))) candidates.push({ baseVoiceId: neural.id, variant: null, speed });
  for (const variant of variants) candidates.push({ baseVoiceId: plain.id, variant, speed });
  return candidates.slice(0, 3);
}

/** The gender a variant gives its voice; `klatt` keeps the base voice's. */
export function variantGender(variant: string): 'female' | 'male' | null {
  if (variant === 'klatt') return null;
  return /^f\d$|^whisperf$|^grandma$/.test(variant) ? 'female' : 'male';
}

/** The preview's id carries its settings, so keeping it needs nothing stored in between. */
export const generatedVoiceIdOf = (settings: DesignedSettings) =>
  Buffer.from(JSON.stringify([settings.baseVoiceId, settings.variant, settings.speed])).toString('base64url');

export function settingsOfGeneratedVoiceId(id: string, catalogue: VoiceCatalogue): DesignedSettings & { base: Voice } {
  const refused = invalid([{ location: 'generated_voice_id', message: 'is not an id design_previews answered' }]);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) throw refused;
  const [baseVoiceId, variant, speed] = decoded as unknown[];
  const base = typeof baseVoiceId === 'number' ? catalogue.byId(baseVoiceId) : undefined;
  const variantOk = variant === null || (ESPEAK_VARIANTS as readonly unknown[]).includes(variant);
  const speedOk = typeof speed === 'number' && speed >= 0.5 && speed <= 2;
  if (!base || !variantOk || !speedOk || (variant !== null && base.engine !== 'espeak-ng')) throw refused;
  return { base, baseVoiceId: base.id, variant: variant as EspeakVariant | null, speed };
}

export interface Preview {
  generated_voice_id: string;
  audio_base_64: string;
  duration_secs: number;
  language: string;
}

/** Speaks `text` with a candidate and answers it as base64 mp3; the files live only while it is made. */
export async function speakPreview(synthesizer: Synthesizer, settings: DesignedSettings, base: Voice, text: string): Promise<Preview> {
  const dir = await mkdtemp(path.join(tmpdir(), 'voice-preview-'));
  try {
    const wavPath = path.join(dir, 'preview.wav');
    const mp3Path = path.join(dir, 'preview.mp3');
    const spoken = await synthesizer.speak(text, { engine: base.engine, engineVoice: engineVoiceOf({ engineVoice: base.engineVoice, variant: settings.variant }), speed: settings.speed }, wavPath);
    const encoded = await runTool('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wavPath, '-codec:a', 'libmp3lame', '-b:a', '64k', mp3Path], { timeoutMs: 30_000 });
    if (encoded.code !== 0) throw new Error(`ffmpeg could not encode a voice preview: ${encoded.startError?.message ?? tail(encoded.stderr)}`);
    return {
      generated_voice_id: generatedVoiceIdOf(settings),
      audio_base_64: (await readFile(mp3Path)).toString('base64'),
      duration_secs: Math.round(spoken.durationMs) / 1000,
      language: base.language.code,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
