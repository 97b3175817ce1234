// Voice design without a model that designs voices: the description's words are mapped onto what the installed
// engines can vary (which voice, which espeak-ng variant, how fast), and each candidate speaks a preview.
// With Kokoro installed, gender and accent pick its voice and timbre words blend a second one in (its style vectors
// mix); the mapping is in docs/voices.md.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Synthesizer } from '../media/synthesizer.ts';
import { runTool, tail } from '../media/tool.ts';
import { invalid } from '../shared/errors.ts';
import type { Voice, VoiceCatalogue } from './catalogue.ts';
import { ESPEAK_VARIANTS, type EspeakVariant } from './commands.ts';
import { engineVoiceOf } from './custom.ts';

/** A designed voice before it is kept: a stock voice, an espeak-ng variant or a Kokoro blend, and a speed. */
export interface DesignedSettings {
  baseVoiceId: number;
  variant: EspeakVariant | null;
  speed: number;
  blend: { voice: { id: number }; weight: number }[] | null;
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

/**
 * Timbre words and the Kokoro voices of each gender that lend it, best first: a description's warm or bright words
 * blend the first of them that is not already the main voice into it.
 */
const TIMBRES = [
  { words: ['warm', 'deep', 'rich', 'low', 'mature', 'old', 'older', 'elderly', 'mellow', 'soothing'], female: ['bf_emma', 'af_bella'], male: ['am_fenrir', 'bm_george'] },
  { words: ['bright', 'young', 'youthful', 'light', 'crisp', 'clear', 'energetic', 'lively', 'cheerful'], female: ['af_bella', 'af_heart'], male: ['am_michael', 'bm_george'] },
];

/** The Kokoro voice a description's gender and accent choose, with a second voice blended in for its timbre words. */
function kokoroCandidate(words: Set<string>, gender: 'female' | 'male' | null, code: string, speed: number, catalogue: VoiceCatalogue): DesignedSettings | null {
  const kokoro = catalogue.voices.filter((voice) => voice.engine === 'kokoro');
  const main = kokoro.find((voice) => voice.language.code === code && (gender === null || voice.gender === gender));
  if (!main) return null;
  // The timbre most words ask for leads (warmth on a tie); one word lends a third of the voice, more lend 40 %.
  const [count, timbre] = TIMBRES.map((entry) => [entry.words.filter((word) => words.has(word)).length, entry] as const).reduce((best, next) => (next[0] > best[0] ? next : best));
  const partner = count > 0 && main.gender ? timbre[main.gender].map((name) => kokoro.find((voice) => voice.engineVoice === name)).find((voice) => voice && voice.id !== main.id) : undefined;
  return { baseVoiceId: main.id, variant: null, speed, blend: partner ? [{ voice: { id: partner.id }, weight: count > 1 ? 0.4 : 0.3 }] : null };
}

/** Up to three candidates for a description, the closest first: the neural voice leads when it fits. */
export function designCandidates(description: string, catalogue: VoiceCatalogue): DesignedSettings[] {
  const text = description.toLowerCase();
  const words = new Set(text.split(/[^a-z]+/).filter(Boolean));
  const gender = genderOf(words);
  const speed = speedOf(words, text);
  const code = languageOf(words);
  const neural = catalogue.voices.find((voice) => voice.engine === 'piper' && voice.language.code === code && (gender === null || voice.gender === gender));
  const blended = kokoroCandidate(words, gender, code, speed, catalogue);
  const plain = catalogue.voices.find((voice) => voice.engine === 'espeak-ng' && voice.language.code === code) ?? catalogue.defaultFor('en')!;
  const variants = variantsOf(gender, words);
  const candidates: DesignedSettings[] = [];
  // Variants change how a voice sounds more than a neural voice's pace does: they lead for age and breath words.
  const variantsLead = variants.some((variant) => ['f1', 'm1', 'whisper', 'whisperf', 'klatt'].includes(variant));
  if (neural && !variantsLead) candidates.push({ baseVoiceId: neural.id, variant: null, speed, blend: null });
  if (blended && !variantsLead) candidates.push(blended);
  for (const variant of variants) candidates.push({ baseVoiceId: plain.id, variant, speed, blend: null });
  // A blend still says age in a neural voice: it follows the variants where they lead.
  if (blended && variantsLead && blended.blend) candidates.splice(Math.min(2, candidates.length), 0, blended);
  return candidates.slice(0, 3);
}

/** The gender a variant gives its voice; `klatt` keeps the base voice's. */
export function variantGender(variant: string): 'female' | 'male' | null {
  if (variant === 'klatt') return null;
  return /^f\d$|^whisperf$|^grandma$/.test(variant) ? 'female' : 'male';
}

/** The preview's id carries its settings, so keeping it needs nothing stored in between. */
export const generatedVoiceIdOf = (settings: DesignedSettings) =>
  Buffer.from(JSON.stringify([settings.baseVoiceId, settings.variant, settings.speed, settings.blend?.map((part) => [part.voice.id, part.weight]) ?? null])).toString('base64url');

/** A blend as an id carries it, `[[voice id, weight]]`: Kokoro voices, each weighing less than the base voice keeps. */
function blendOfId(value: unknown, base: Voice, catalogue: VoiceCatalogue): DesignedSettings['blend'] | undefined {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.length < 1 || value.length > 3 || base.engine !== 'kokoro') return undefined;
  const parts = value.map((part: unknown) => (Array.isArray(part) && part.length === 2 && typeof part[0] === 'number' && typeof part[1] === 'number' ? { voice: { id: part[0] }, weight: part[1] } : null));
  const valid = parts.every((part) => part && part.weight > 0 && catalogue.byId(part.voice.id)?.engine === 'kokoro' && part.voice.id !== base.id);
  return valid && parts.reduce((sum, part) => sum + part!.weight, 0) < 1 ? (parts as NonNullable<DesignedSettings['blend']>) : undefined;
}

export function settingsOfGeneratedVoiceId(id: string, catalogue: VoiceCatalogue): DesignedSettings & { base: Voice } {
  const refused = invalid([{ location: 'generated_voice_id', message: 'is not an id design_previews answered' }]);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  if (!Array.isArray(decoded) || decoded.length < 3 || decoded.length > 4) throw refused;
  const [baseVoiceId, variant, speed, blendValue] = decoded as unknown[];
  const base = typeof baseVoiceId === 'number' ? catalogue.byId(baseVoiceId) : undefined;
  const variantOk = variant === null || (ESPEAK_VARIANTS as readonly unknown[]).includes(variant);
  const speedOk = typeof speed === 'number' && speed >= 0.5 && speed <= 2;
  if (!base || !variantOk || !speedOk || (variant !== null && base.engine !== 'espeak-ng')) throw refused;
  const blend = blendOfId(blendValue, base, catalogue);
  if (blend === undefined) throw refused;
  return { base, baseVoiceId: base.id, variant: variant as EspeakVariant | null, speed, blend };
}

export interface Preview {
  generated_voice_id: string;
  audio_base_64: string;
  duration_secs: number;
  language: string;
}

/** Speaks `text` with a candidate and answers it as base64 mp3; the files live only while it is made. */
export async function speakPreview(synthesizer: Synthesizer, settings: DesignedSettings, catalogue: VoiceCatalogue, text: string): Promise<Preview> {
  const base = catalogue.byId(settings.baseVoiceId)!;
  const blend = settings.blend?.map((part) => ({ voiceId: part.voice.id, engineVoice: catalogue.byId(part.voice.id)!.engineVoice, weight: part.weight })) ?? null;
  const dir = await mkdtemp(path.join(tmpdir(), 'voice-preview-'));
  try {
    const wavPath = path.join(dir, 'preview.wav');
    const mp3Path = path.join(dir, 'preview.mp3');
    const spoken = await synthesizer.speak(text, { engine: base.engine, engineVoice: engineVoiceOf({ engineVoice: base.engineVoice, variant: settings.variant, blend }), speed: settings.speed }, wavPath);
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
