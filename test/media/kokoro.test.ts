import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config.ts';
import { createKokoroEngine, installedKokoroVoices } from '../../src/media/engines/kokoro.ts';
import { SynthesisError } from '../../src/media/errors.ts';
import { probeDurationMs, silences } from '../../src/media/probe.ts';
import { SAMPLE_RATE } from '../../src/media/synthesizer.ts';
import { tokensOf } from '../support/generation.ts';
import { expectEveryWordTimed } from '../support/speech.ts';

// The venv and voices scripts/install-tools.sh installs (npm run setup), where the service looks for them by default.
const venv = configSchema.parse({}).KOKORO_VENV;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kokoro-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const engine = createKokoroEngine({ venv, workers: 1, timeoutMs: 60_000, maxRssMb: 2048 });
afterAll(() => engine.close());

// Runs once, in the embedded run: the real-server run (TEST_MONGODB_URL set) changes only where events and read
// models are kept, and the engine is not behind any store.
describe.skipIf(process.env.TEST_MONGODB_URL)('the Kokoro engine', () => {
  it('is installed with the English voices of kokoro-js, American and British (the other languages: kokoroLanguages.test.ts)', async () => {
    const voices = await installedKokoroVoices(venv);
    expect(voices).toEqual(expect.arrayContaining(['af_heart', 'af_bella', 'am_michael', 'am_fenrir', 'bf_emma', 'bm_george']));
    expect(voices.filter((voice) => /^[ab][fm]_/.test(voice))).toHaveLength(28);
  });

  it('writes a 22,050 Hz WAV and times every written word, numbers, abbreviations and inline IPA included, in order', async () => {
    const text = 'In 1996, Dr. Smith read 3.5 books of the world — a [[təmˈɑːtoʊ]] and/or two “quick” foxes!';
    const spoken = await engine.speak(text, 'af_heart', join(dir, 'words.wav'));
    expect(spoken.sampleRate).toBe(SAMPLE_RATE);
    expect(await probeDurationMs(spoken.wavPath)).toBeCloseTo(spoken.durationMs, 0);
    expectEveryWordTimed(spoken, text, 300);
    const duration = (text: string) => spoken.words.find((word) => word.text === text)!.duration;
    expect(duration('1996')).toBeGreaterThan(3 * duration('In'));
  });

  it('starts the word after each pause where the sound resumes, measured by silencedetect: within 30 ms at the median, 60 ms at most', async () => {
    // Kokoro runs one-word sentences together; prose pauses at its full stops and commas.
    const text = 'The ferry left the harbour at nine in the morning. It arrived at the island an hour later, and everyone was happy. Officials said the new boats would halve the journey.';
    const spoken = await engine.speak(text, 'bf_emma', join(dir, 'pauses.wav'));
    expect(spoken.words.map((word) => word.text)).toEqual(tokensOf(text));
    // Where the sound resumes after a pause (the last silence is the audio's end).
    const resumes = (await silences(spoken.wavPath, { noiseDb: -40, minMs: 100 })).map((silence) => silence.end).filter((end) => end < spoken.durationMs - 50);
    expect(resumes.length).toBeGreaterThanOrEqual(3);
    const errors = resumes.map((resume) => Math.min(...spoken.words.map((word) => Math.abs(word.start_time - resume))));
    for (const [i, error] of errors.entries()) expect(error, `the sound resuming at ${resumes[i]} ms`).toBeLessThanOrEqual(60);
    expect([...errors].sort((a, b) => a - b)[Math.floor(errors.length / 2)]).toBeLessThanOrEqual(30);
  });

  it('speaks a blend of two voices, and faster at a higher speed', async () => {
    const text = 'The ferry leaves the harbour at nine every morning.';
    const plain = await engine.speak(text, 'bf_emma:0.5+bm_george:0.5', join(dir, 'blend.wav'));
    const quick = await engine.speak(text, 'bf_emma:0.5+bm_george:0.5', join(dir, 'quick.wav'), 1.4);
    expect(plain.words.map((word) => word.text)).toEqual(tokensOf(text));
    expect(quick.durationMs / plain.durationMs).toBeGreaterThan(0.6);
    expect(quick.durationMs / plain.durationMs).toBeLessThan(0.85);
  });

  it('answers unknown-voice for a voice that is not installed', async () => {
    const failure = await engine.speak('Hello.', 'zf_nobody', join(dir, 'none.wav')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SynthesisError);
    expect((failure as SynthesisError).reason).toBe('unknown-voice');
  });
});
