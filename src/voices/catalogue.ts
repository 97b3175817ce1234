// The voice catalogue: the installed espeak-ng voices with stable integer ids, and their languages.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';

export interface Voice {
  id: number;
  name: string;
  /** What espeak-ng's `-v` takes. */
  espeakName: string;
  language: { code: string; name: string };
}

export interface VoiceCatalogue {
  voices: Voice[];
  byId(id: number): Voice | undefined;
  /** The voice used when nothing more specific is chosen: same language and region, else same language. */
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

export function parseVoiceList(listing: string): Voice[] {
  const rows = listing
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length >= 5);
  const named = rows.flatMap(([, espeakName, , voiceName]) => {
    const code = espeakName ? languageCodeOf(espeakName) : null;
    return code && espeakName && voiceName ? [{ espeakName, code, name: voiceName.replace(/_/g, ' ') }] : [];
  });
  const ids = stableIds(named.map((voice) => voice.espeakName));
  return named
    .map(({ espeakName, code, name }) => ({ id: ids.get(espeakName)!, name, espeakName, language: { code, name: languageName(code) } }))
    .sort((a, b) => a.espeakName.localeCompare(b.espeakName));
}

export function createCatalogue(voices: Voice[]): VoiceCatalogue {
  const byId = new Map(voices.map((voice) => [voice.id, voice]));
  const shortestFirst = [...voices].sort((a, b) => a.espeakName.length - b.espeakName.length || a.espeakName.localeCompare(b.espeakName));
  return {
    voices,
    byId: (id) => byId.get(id),
    defaultFor(code) {
      const base = code.split('_')[0];
      return shortestFirst.find((voice) => voice.language.code === code) ?? shortestFirst.find((voice) => voice.language.code.split('_')[0] === base);
    },
    languages() {
      const codes = [...new Set(voices.map((voice) => voice.language.code))].sort();
      return codes.map((code) => ({ code, name: languageName(code) }));
    },
  };
}

export async function loadVoiceCatalogue(): Promise<VoiceCatalogue> {
  const { stdout } = await promisify(execFile)('espeak-ng', ['--voices'], { timeout: 10_000 });
  return createCatalogue(parseVoiceList(stdout));
}
