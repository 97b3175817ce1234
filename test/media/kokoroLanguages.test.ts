import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config.ts';
import { createKokoroEngine, installedKokoroVoices } from '../../src/media/engines/kokoro.ts';
import { probeDurationMs } from '../../src/media/probe.ts';
import type { SpokenText } from '../../src/media/synthesizer.ts';
import { normalizeForSpeech } from '../../src/speech/normalize.ts';
import { timingsToWritten } from '../../src/speech/writtenTimings.ts';
import { expectEveryWordTimed } from '../support/speech.ts';

// The venv and voices scripts/install-tools.sh installs (npm run setup), where the service looks for them by default.
const venv = configSchema.parse({}).KOKORO_VENV;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kokoro-languages-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Two workers: the languages are spoken two at a time, as the service's pool would.
const engine = createKokoroEngine({ venv, workers: 2, timeoutMs: 60_000, maxRssMb: 2048 });
afterAll(() => engine.close());

/** The voices of kokoro-js 1.2.1 beyond English, by language (the first letter of their names). */
const VOICES = {
  es: ['ef_dora', 'em_alex', 'em_santa'],
  fr: ['ff_siwis'],
  it: ['if_sara', 'im_nicola'],
  pt: ['pf_dora', 'pm_alex', 'pm_santa'],
  hi: ['hf_alpha', 'hf_beta', 'hm_omega', 'hm_psi'],
  ja: ['jf_alpha', 'jf_gongitsune', 'jf_nezumi', 'jf_tebukuro', 'jm_kumo'],
  zh: ['zf_xiaobei', 'zf_xiaoni', 'zf_xiaoxiao', 'zf_xiaoyi', 'zm_yunjian', 'zm_yunxi', 'zm_yunxia', 'zm_yunyang'],
};

/** A sentence per language written with spaces, said by one of its voices; its words are its whitespace tokens. */
const SPACED = [
  ['es_ES', 'em_alex', 'El tren salió de Madrid a las nueve.'],
  ['fr_FR', 'ff_siwis', 'Le train est parti de Paris à neuf heures.'],
  ['it_IT', 'if_sara', 'Il treno è partito da Roma alle nove.'],
  ['pt_BR', 'pf_dora', 'O trem saiu de São Paulo às nove horas.'],
  ['hi_IN', 'hf_alpha', 'ट्रेन सुबह नौ बजे दिल्ली से रवाना हुई।'],
] as const;

/**
 * Japanese and Chinese are written without spaces: their words are the G2P's (Open JTalk's morphemes, an auxiliary
 * verb with the word before it) and jieba's, punctuation with the word before it, the number as written (a digit a word of its own).
 */
const UNSPACED = [
  ['ja_JP', 'jf_alpha', '電車は朝9時に東京を出発しました。', ['電車', 'は', '朝', '9', '時', 'に', '東京', 'を', '出発', 'しました']],
  ['zh_CN', 'zm_yunxi', '火车早上9点从北京出发。', ['火车', '早上', '9', '点', '从', '北京', '出发']],
] as const;

/** Kokoro speaks about 12 to 20 characters of these texts a second (a CJK character is a syllable or two). */
function expectSpokenLength(spoken: SpokenText, text: string, perCharacterMs: [number, number]) {
  const characters = [...text.replace(/\s/gu, '')].length;
  expect(spoken.durationMs).toBeGreaterThan(characters * perCharacterMs[0]);
  expect(spoken.durationMs).toBeLessThan(characters * perCharacterMs[1]);
}

// Runs once, in the embedded run: the real-server run (TEST_MONGODB_URL set) changes only where events and read
// models are kept, and the engine is not behind any store.
describe.skipIf(process.env.TEST_MONGODB_URL)('Kokoro in its eight languages', () => {
  it('is installed with every v1.0 voice of kokoro-js, 54 in nine language groups', async () => {
    const voices = await installedKokoroVoices(venv);
    expect(voices).toHaveLength(54);
    expect(voices).toEqual(expect.arrayContaining(Object.values(VOICES).flat()));
    expect(new Set(voices.map((voice) => voice[0]))).toEqual(new Set(['a', 'b', 'e', 'f', 'h', 'i', 'j', 'p', 'z']));
  });

  it('speaks Spanish, French, Italian, Portuguese and Hindi with every written word timed, in order, to the end of the audio', async () => {
    const spoken = await Promise.all(SPACED.map(([, voice, text], i) => engine.speak(text, voice, join(dir, `spaced-${i}.wav`))));
    for (const [i, [language, , text]] of SPACED.entries()) {
      const said = spoken[i]!;
      expect(await probeDurationMs(said.wavPath), language).toBeCloseTo(said.durationMs, 0);
      expectSpokenLength(said, text, [35, 110]);
      expectEveryWordTimed(said, text, 400);
      // Said as written (no rule rewrites these languages), the written words keep the engine's timings.
      expect(timingsToWritten(text, normalizeForSpeech(text, language), said.words), language).toEqual(said.words);
    }
  }, 90_000);

  it('times Japanese and Chinese word by word, as their G2P segments them, and keeps those words for the written text', async () => {
    const spoken = await Promise.all(UNSPACED.map(([, voice, text], i) => engine.speak(text, voice, join(dir, `unspaced-${i}.wav`))));
    for (const [i, [language, , text, words]] of UNSPACED.entries()) {
      const said = spoken[i]!;
      expect(said.words.map((word) => word.text), language).toEqual(words);
      expectSpokenLength(said, text, [80, 300]);
      said.words.forEach((word, j) => {
        expect(word.duration, `${language} ${word.text}`).toBeGreaterThan(0);
        if (j > 0) expect(word.start_time).toBe(said.words[j - 1]!.start_time + said.words[j - 1]!.duration);
      });
      const last = said.words.at(-1)!;
      expect(last.start_time + last.duration).toBeLessThanOrEqual(said.durationMs);
      expect(last.start_time + last.duration).toBeGreaterThan(said.durationMs - 400);
      // The karaoke captions and the player highlight these words of the written text, one by one.
      expect(timingsToWritten(text, normalizeForSpeech(text, language), said.words), language).toEqual(said.words);
    }
  }, 90_000);
});
