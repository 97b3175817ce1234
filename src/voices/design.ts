// Voice design without a model that designs voices: the description's words are mapped onto what the installed
// neural engines can vary. Gender and accent pick a Kokoro voice, timbre and accent words blend others into it (their
// style vectors mix), pace words set its speed, and age and depth words shift its pitch and timbre with a DSP filter
// after it speaks (src/media/engines/kokoroShift.ts). espeak-ng's `klatt` is offered only for a robotic voice, which
// the neural voices do not do. The mapping is in docs/voices.md.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isNeutralShift, isValidShift, SHIFT_LIMITS, type VoiceShift } from '../media/engines/kokoroShift.ts';
import type { Synthesizer } from '../media/synthesizer.ts';
import { runTool, tail } from '../media/tool.ts';
import { invalid } from '../shared/errors.ts';
import { speakable } from '../speech/normalize.ts';
import type { Voice, VoiceCatalogue } from './catalogue.ts';
import { ESPEAK_VARIANTS, type EspeakVariant } from './commands.ts';
import { engineVoiceOf } from './custom.ts';

/** A designed voice before it is kept: a stock voice, an espeak-ng variant or a Kokoro blend and shift, and a speed. */
export interface DesignedSettings {
  baseVoiceId: number;
  variant: EspeakVariant | null;
  speed: number;
  blend: { voice: { id: number }; weight: number }[] | null;
  shift: VoiceShift | null;
}

export const DEFAULT_PREVIEW_TEXT =
  'Every morning the newsroom gathers the stories that matter most. This is how this voice would read them to you, one sentence after another.';

const has = (words: Set<string>, ...wanted: string[]) => wanted.some((word) => words.has(word));

/** The description's word groups (docs/voices.md lists them): what each asks of the voice. */
export const DESCRIPTION_WORDS = {
  female: ['female', 'woman', 'women', 'girl', 'lady', 'she', 'her', 'feminine', 'grandmother', 'grandma'],
  male: ['male', 'man', 'men', 'boy', 'gentleman', 'he', 'his', 'masculine', 'grandfather', 'grandpa'],
  neutral: ['neutral', 'androgynous', 'nonbinary', 'ungendered'],
  british: ['british', 'london', 'uk', 'england', 'scottish'],
  transatlantic: ['transatlantic', 'atlantic'],
  old: ['old', 'older', 'elderly', 'aged', 'senior', 'grandmother', 'grandfather', 'grandma', 'grandpa', 'mature'],
  young: ['young', 'youthful', 'teen', 'teenage', 'child', 'kid', 'girl', 'boy'],
  deep: ['deep', 'low', 'bass', 'husky', 'gravelly', 'raspy', 'booming', 'resonant'],
  high: ['high', 'light', 'thin', 'squeaky', 'bright', 'crisp'],
  slow: ['slow', 'slowly', 'unhurried', 'leisurely'],
  fast: ['fast', 'quick', 'quickly', 'rapid', 'brisk', 'speedy'],
  calm: ['calm', 'warm', 'soothing', 'gentle', 'relaxed', 'soft', 'mellow'],
  energetic: ['energetic', 'lively', 'excited', 'enthusiastic', 'upbeat', 'dynamic'],
  robotic: ['robotic', 'robot', 'synthetic', 'mechanical'],
  whispered: ['whisper', 'whispering', 'whispered', 'breathy', 'hushed'],
} as const;

type Group = keyof typeof DESCRIPTION_WORDS;
const asks = (words: Set<string>, group: Group) => has(words, ...DESCRIPTION_WORDS[group]);

/** How fast the description asks for: pace words set it, temper words nudge it. */
function speedOf(words: Set<string>, text: string): number {
  let speed = 1;
  if (asks(words, 'slow')) speed = /very slow/.test(text) ? 0.7 : 0.85;
  if (asks(words, 'fast')) speed = /very (fast|quick)/.test(text) ? 1.4 : 1.2;
  if (asks(words, 'calm') || asks(words, 'whispered')) speed *= 0.93;
  if (asks(words, 'energetic')) speed *= 1.1;
  return Math.round(Math.min(2, Math.max(0.5, speed)) * 100) / 100;
}

function genderOf(words: Set<string>): 'female' | 'male' | null {
  if (asks(words, 'neutral')) return null;
  if (asks(words, 'female')) return 'female';
  if (asks(words, 'male')) return 'male';
  return null;
}

/**
 * Age and depth words as a pitch shift and a timbre tilt: older and deeper voices lower (a woman's more, her voice
 * drops further with age), with more low band; younger and higher ones raise, with more high band. Each group
 * counts once; the sum stays within SHIFT_LIMITS.
 */
function shiftOf(words: Set<string>, gender: 'female' | 'male' | null): VoiceShift | null {
  const shift = { semitones: 0, lowDb: 0, highDb: 0 };
  const add = (semitones: number, lowDb: number, highDb: number) => {
    shift.semitones += semitones;
    shift.lowDb += lowDb;
    shift.highDb += highDb;
  };
  if (asks(words, 'old')) add(gender === 'male' ? -1 : -2, 2, -1);
  if (asks(words, 'young')) add(1.5, -1, 2);
  if (asks(words, 'deep')) add(-2, 4, 0);
  if (asks(words, 'high')) add(1.5, 0, 3);
  const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));
  const kept = { semitones: clamp(shift.semitones, SHIFT_LIMITS.semitones), lowDb: clamp(shift.lowDb, SHIFT_LIMITS.db), highDb: clamp(shift.highDb, SHIFT_LIMITS.db) };
  return isNeutralShift(kept) ? null : kept;
}

/** British words ask for en_GB (Kokoro's British voices, else espeak-ng's); everything else English is en_US. */
const languageOf = (words: Set<string>) => (asks(words, 'british') && !asks(words, 'transatlantic') ? 'en_GB' : 'en_US');

/**
 * Timbre words and the Kokoro voices of each gender that lend it, best first: a description's warm or bright words
 * blend the first of them that is not already the main voice into it.
 */
const TIMBRES = [
  { words: ['warm', 'deep', 'rich', 'low', 'mature', 'old', 'older', 'elderly', 'mellow', 'soothing'], female: ['bf_emma', 'af_bella'], male: ['am_fenrir', 'bm_george'] },
  { words: ['bright', 'young', 'youthful', 'light', 'crisp', 'clear', 'energetic', 'lively', 'cheerful'], female: ['af_bella', 'af_heart'], male: ['am_michael', 'bm_george'] },
];

/** The other gender's voice of the region, blended in equal parts for a neutral voice; the other region's for a transatlantic one. */
function accentAndGenderParts(words: Set<string>, main: Voice, kokoro: Voice[]): { voice: Voice; weight: number }[] {
  const parts: { voice: Voice; weight: number }[] = [];
  if (asks(words, 'neutral') && main.gender) {
    const other = kokoro.find((voice) => voice.language.code === main.language.code && voice.gender !== null && voice.gender !== main.gender);
    if (other) parts.push({ voice: other, weight: 0.45 });
  }
  if (asks(words, 'transatlantic')) {
    const other = kokoro.find((voice) => voice.language.code !== main.language.code && voice.gender === main.gender);
    if (other) parts.push({ voice: other, weight: 0.35 });
  }
  return parts;
}

/**
 * A Kokoro voice for the description: `rank` 0 is the best fit of its gender and accent, 1 the next one (another voice
 * of the same gender and accent, else of the same gender). Timbre, accent and neutral words blend other voices in.
 */
function kokoroCandidate(words: Set<string>, gender: 'female' | 'male' | null, code: string, speed: number, shift: VoiceShift | null, catalogue: VoiceCatalogue, rank: number): DesignedSettings | null {
  // The description's language only (its other region is another accent): a Spanish voice never stands in for English.
  const kokoro = catalogue.voices.filter((voice) => voice.engine === 'kokoro' && voice.language.code.split('_')[0] === code.split('_')[0]);
  const fits = [
    ...kokoro.filter((voice) => voice.language.code === code && (gender === null || voice.gender === gender)),
    ...kokoro.filter((voice) => voice.language.code !== code && (gender === null || voice.gender === gender)),
  ];
  const main = fits[rank];
  if (!main) return null;
  const parts = accentAndGenderParts(words, main, kokoro);
  // The timbre most words ask for leads (warmth on a tie); one word lends a third of the voice, more lend 40 %.
  const [count, timbre] = TIMBRES.map((entry) => [entry.words.filter((word) => words.has(word)).length, entry] as const).reduce((best, next) => (next[0] > best[0] ? next : best));
  const taken = (voice: Voice) => voice.id === main.id || parts.some((part) => part.voice.id === voice.id);
  const partner = count > 0 && main.gender ? timbre[main.gender].map((name) => kokoro.find((voice) => voice.engineVoice === name)).find((voice) => voice && !taken(voice)) : undefined;
  if (partner) parts.push({ voice: partner, weight: parts.length > 0 ? 0.2 : count > 1 ? 0.4 : 0.3 });
  const blend = parts.length > 0 ? parts.map((part) => ({ voice: { id: part.voice.id }, weight: part.weight })) : null;
  return { baseVoiceId: main.id, variant: null, speed, blend, shift };
}

/**
 * Up to three candidates for a description, the closest first. Neural voices: Kokoro's, blended and shifted; Piper's
 * where no shift is asked for (it speaks as trained). A robotic description leads with espeak-ng's `klatt`. Without Kokoro or Piper, espeak-ng's plain voice.
 */
export function designCandidates(description: string, catalogue: VoiceCatalogue): DesignedSettings[] {
  const text = description.toLowerCase();
  const words = new Set(text.split(/[^a-z]+/).filter(Boolean));
  const gender = genderOf(words);
  const speed = speedOf(words, text);
  const code = languageOf(words);
  const shift = shiftOf(words, gender);
  const plain = catalogue.voices.find((voice) => voice.engine === 'espeak-ng' && voice.language.code === code) ?? catalogue.defaultFor('en')!;
  const candidates: DesignedSettings[] = [];
  // No espeak-ng whisper: the recognizer lost its opening words at one speed or another (14 % WER and more on the
  // design test's text), so a whispered description gets the neural voices, softly paced.
  if (asks(words, 'robotic')) candidates.push({ baseVoiceId: plain.id, variant: 'klatt', speed, blend: null, shift: null });
  const piper = catalogue.voices.find((voice) => voice.engine === 'piper' && voice.language.code === code && (gender === null || voice.gender === gender));
  const neutralPiper = piper && !shift && !asks(words, 'neutral') && !asks(words, 'transatlantic') ? { baseVoiceId: piper.id, variant: null, speed, blend: null, shift: null } : null;
  if (neutralPiper) candidates.push(neutralPiper);
  for (const rank of [0, 1]) {
    const kokoro = kokoroCandidate(words, gender, code, speed, shift, catalogue, rank);
    if (kokoro) candidates.push(kokoro);
  }
  if (piper && !neutralPiper) candidates.push({ baseVoiceId: piper.id, variant: null, speed, blend: null, shift: null });
  if (candidates.length === 0) candidates.push({ baseVoiceId: plain.id, variant: null, speed, blend: null, shift: null });
  return candidates.slice(0, 3);
}

/** The gender a variant gives its voice; `klatt` keeps the base voice's. */
export function variantGender(variant: string): 'female' | 'male' | null {
  if (variant === 'klatt') return null;
  return /^f\d$|^whisperf$|^grandma$/.test(variant) ? 'female' : 'male';
}

/** The preview's id carries its settings, so keeping it needs nothing stored in between. */
export const generatedVoiceIdOf = (settings: DesignedSettings) =>
  Buffer.from(
    JSON.stringify([
      settings.baseVoiceId,
      settings.variant,
      settings.speed,
      settings.blend?.map((part) => [part.voice.id, part.weight]) ?? null,
      settings.shift ? [settings.shift.semitones, settings.shift.lowDb, settings.shift.highDb] : null,
    ]),
  ).toString('base64url');

/** A shift as an id carries it, `[semitones, low dB, high dB]`: only with a Kokoro base voice, within SHIFT_LIMITS. */
function shiftOfId(value: unknown, base: Voice): VoiceShift | null | undefined {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.length !== 3 || base.engine !== 'kokoro') return undefined;
  const [semitones, lowDb, highDb] = value as unknown[];
  const shift = { semitones, lowDb, highDb } as VoiceShift;
  return isValidShift(shift) && !isNeutralShift(shift) ? shift : undefined;
}

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
  if (!Array.isArray(decoded) || decoded.length < 3 || decoded.length > 5) throw refused;
  const [baseVoiceId, variant, speed, blendValue, shiftValue] = decoded as unknown[];
  const base = typeof baseVoiceId === 'number' ? catalogue.byId(baseVoiceId) : undefined;
  const variantOk = variant === null || (ESPEAK_VARIANTS as readonly unknown[]).includes(variant);
  const speedOk = typeof speed === 'number' && speed >= 0.5 && speed <= 2;
  if (!base || !variantOk || !speedOk || (variant !== null && base.engine !== 'espeak-ng')) throw refused;
  const blend = blendOfId(blendValue, base, catalogue);
  const shift = shiftOfId(shiftValue, base);
  if (blend === undefined || shift === undefined) throw refused;
  return { base, baseVoiceId: base.id, variant: variant as EspeakVariant | null, speed, blend, shift };
}

export interface Preview {
  generated_voice_id: string;
  audio_base_64: string;
  duration_secs: number;
  language: string;
}

/** As many recent previews as are kept: a preview is about 100 kB, and a designer tries a few descriptions in turn. */
const KEPT_PREVIEWS = 32;
const keptPreviews = new Map<string, Promise<Preview>>();

/**
 * A preview of the same settings and text is the same recording (the engines speak deterministically), so a recent one
 * is answered again, and one being spoken is shared: a neural preview takes seconds to speak, a repeat none.
 */
export function previewOf(synthesizer: Synthesizer, settings: DesignedSettings, catalogue: VoiceCatalogue, text: string): Promise<Preview> {
  const key = `${generatedVoiceIdOf(settings)}\n${text}`;
  const kept = keptPreviews.get(key);
  if (kept) {
    keptPreviews.delete(key);
    keptPreviews.set(key, kept);
    return kept;
  }
  const speaking = speakPreview(synthesizer, settings, catalogue, text);
  keptPreviews.set(key, speaking);
  speaking.catch(() => keptPreviews.delete(key));
  if (keptPreviews.size > KEPT_PREVIEWS) keptPreviews.delete(keptPreviews.keys().next().value!);
  return speaking;
}

/** Speaks `text` with a candidate and answers it as base64 mp3; the files live only while it is made. */
async function speakPreview(synthesizer: Synthesizer, settings: DesignedSettings, catalogue: VoiceCatalogue, text: string): Promise<Preview> {
  const base = catalogue.byId(settings.baseVoiceId)!;
  const blend = settings.blend?.map((part) => ({ voiceId: part.voice.id, engineVoice: catalogue.byId(part.voice.id)!.engineVoice, weight: part.weight })) ?? null;
  const dir = await mkdtemp(path.join(tmpdir(), 'voice-preview-'));
  try {
    const wavPath = path.join(dir, 'preview.wav');
    const mp3Path = path.join(dir, 'preview.mp3');
    const spoken = await synthesizer.speak(speakable(text), { engine: base.engine, engineVoice: engineVoiceOf({ engine: base.engine, engineVoice: base.engineVoice, variant: settings.variant, blend, shift: settings.shift }), speed: settings.speed }, wavPath);
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
