// The voices of Debian's non-neural engines that speak better than espeak-ng: German on SVOX Pico, Russian on RHVoice.
import { createHash } from 'node:crypto';
import { picoInstalled } from '../media/engines/pico.ts';
import { installedRhvoiceVoices } from '../media/engines/rhvoice.ts';
import { languageName, type Voice } from './catalogue.ts';

type Offered = Pick<Voice, 'engineVoice' | 'name' | 'gender' | 'accent'> & { engine: 'pico' | 'rhvoice'; code: string };

/** Pico's German voice (libttspico-data; Apache 2.0). Pico speaks en/es/fr/it too, which Kokoro's voices read better. */
const PICO_VOICES: Offered[] = [{ engine: 'pico', engineVoice: 'de-DE', name: 'Pico', code: 'de_DE', gender: 'female', accent: 'German' }];

/**
 * RHVoice's Russian voices whose licence allows a commercial service (LGPL 2.1+, docs/voices.md), best first by how
 * well the recognizer understands them (word error rate 8, 13, 13 and 15 % on two news paragraphs, Whisper base): the
 * first is Russian's default. rhvoice-russian ships the others under
 * CC BY-NC-ND (not for a product that is sold) or CC BY-SA (aleksandr-hq: its attribution would bind every audio).
 */
const RHVOICE_VOICES: Offered[] = [
  { engine: 'rhvoice', engineVoice: 'aleksandr', name: 'Aleksandr', code: 'ru_RU', gender: 'male', accent: 'Russian' },
  { engine: 'rhvoice', engineVoice: 'irina', name: 'Irina', code: 'ru_RU', gender: 'female', accent: 'Russian' },
  { engine: 'rhvoice', engineVoice: 'anna', name: 'Anna', code: 'ru_RU', gender: 'female', accent: 'Russian' },
  { engine: 'rhvoice', engineVoice: 'elena', name: 'Elena', code: 'ru_RU', gender: 'female', accent: 'Russian' },
];

/** The offered voices whose engine and data are installed, with ids from `engine/voice` that no voice in `taken` has (it is extended). */
export async function loadDebianVoices(taken: Set<number>, log: (message: string) => void): Promise<Voice[]> {
  const [pico, rhvoice] = await Promise.all([picoInstalled(), installedRhvoiceVoices()]);
  const installed = [...(pico ? PICO_VOICES : []), ...RHVOICE_VOICES.filter((voice) => rhvoice.includes(voice.engineVoice))];
  const voices = installed.map(({ code, ...voice }) => ({ ...voice, id: idOf(`${voice.engine}/${voice.engineVoice}`, taken), language: { code, name: languageName(code) } }));
  log(
    `speech: ${pico ? 'Pico (de_DE)' : 'Pico is not installed'}; ` +
      (rhvoice.length > 0 ? `RHVoice ${voices.filter((voice) => voice.engine === 'rhvoice').map((voice) => voice.name).join(', ')} (ru_RU)` : 'RHVoice is not installed'),
  );
  return voices;
}

/** As the catalogue's own ids: from the voice's name, so adding or removing other voices never renumbers it. */
function idOf(name: string, taken: Set<number>): number {
  let id = 100_000 + (createHash('sha256').update(name).digest().readUInt32BE(0) % 900_000);
  while (taken.has(id)) id += 1;
  taken.add(id);
  return id;
}
