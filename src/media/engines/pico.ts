// Speaks text with SVOX Pico (German) through Debian's pico2wave: a WAV, and word timings aligned to it.
//
// Pico reports no word positions. The words are timed by espeak-ng instead, speaking the same text (its word events
// are exact, and its German rules expand numbers and abbreviations as Pico does), and espeak's timeline is then
// warped onto Pico's audio: both pause where the text has punctuation, so each such pause of espeak's matched to a
// long pause of Pico's (in order, at about the same share of the whole) gives two fixed points (its start and end),
// and the times between are scaled linearly. A word start that lands inside one of Pico's pauses moves to its end.
import { access, readFile, rm } from 'node:fs/promises';
import { SynthesisError } from '../errors.ts';
import { createLimit } from '../limit.ts';
import { SAMPLE_RATE, type SpokenText } from '../synthesizer.ts';
import { runTool, tail } from '../tool.ts';
import { parseWav, trailingSilenceSamples } from '../wav.ts';
import { displayed, tokenize, type WordTiming } from '../wordTimings.ts';
import type { EspeakEngine } from './espeak.ts';
import { pausesOf, type Pause } from './pauses.ts';
import { resampleWav } from './resample.ts';

export interface PicoOptions {
  /** How many synthesizer processes may run at once. */
  concurrency: number;
  /** Per process; past it the process is killed and `speak` rejects with reason `timeout`. */
  timeoutMs: number;
  /** Times the words (see above). */
  espeak: EspeakEngine;
}

export interface PicoEngine {
  /** `voice` is a language pico2wave speaks (`de-DE`); `speed` scales its rate. `text` is plain text. */
  speak(text: string, voice: string, wavPath: string, speed?: number): Promise<SpokenText>;
}

const PICO2WAVE = '/usr/bin/pico2wave';

/** True when Debian's libttspico-utils is installed. */
export const picoInstalled = () => access(PICO2WAVE).then(() => true, () => false);

export function createPicoEngine({ concurrency, timeoutMs, espeak }: PicoOptions): PicoEngine {
  const limit = createLimit(concurrency);
  return {
    speak: (text, voice, wavPath, speed = 1) =>
      limit(async () => {
        const ownRate = `${wavPath}.pico.wav`;
        const estimate = `${wavPath}.estimate.wav`;
        try {
          const [pcm, timed] = await Promise.all([
            synthesize(text, voice, ownRate, wavPath, speed, timeoutMs),
            espeak.speak(text, voice.split('-')[0]!, estimate),
          ]);
          const estimatePcm = parseWav(await readFile(estimate), estimate).data;
          const samples = pcm.length >> 1;
          const audibleEnd = ((samples - trailingSilenceSamples(pcm)) * 1000) / SAMPLE_RATE;
          const estimateEnd = ((timed.samples - trailingSilenceSamples(estimatePcm)) * 1000) / timed.sampleRate;
          const words = warpWords(text, timed.words, pausesOf(estimatePcm, timed.sampleRate, MIN_PAUSE_MS), estimateEnd, pausesOf(pcm, SAMPLE_RATE, MIN_PAUSE_MS), audibleEnd);
          return { wavPath, sampleRate: SAMPLE_RATE, samples, durationMs: (samples * 1000) / SAMPLE_RATE, words };
        } finally {
          await rm(estimate, { force: true });
        }
      }),
  };
}

/** Silences found in both audios; shorter ones are a stop consonant's closure. */
const MIN_PAUSE_MS = 80;
/** Pico pauses this long or longer at a comma or a sentence's end; a stop's closure is shorter. */
const PHRASE_PAUSE_MS = 150;
/** How far apart (as a share of the whole) a pause of espeak's and one of Pico's may be and still be the same break. */
const SAME_BREAK = 0.1;

/** Pico's audio at SAMPLE_RATE in `wavPath` (its 16-bit PCM answered). Pico reads its own markup: `<` and `>` are not text to it. */
async function synthesize(text: string, voice: string, ownRate: string, wavPath: string, speed: number, timeoutMs: number): Promise<Buffer> {
  const plain = text.replace(/[<>]/g, ' ');
  const input = speed === 1 ? plain : `<speed level="${Math.round(speed * 100)}">${plain}</speed>`;
  const run = await runTool(PICO2WAVE, ['-l', voice, '-w', ownRate], { input, timeoutMs });
  if (run.code !== 0) {
    await rm(ownRate, { force: true });
    if (run.timedOut) throw new SynthesisError('timeout', `pico2wave ran longer than ${timeoutMs} ms and was killed`);
    if (/Unknown language/.test(run.stderr)) throw new SynthesisError('unknown-voice', `Pico has no voice named "${voice}"`);
    throw new SynthesisError('failed', `pico2wave failed: ${run.startError?.message ?? tail(run.stderr)}`);
  }
  return resampleWav(ownRate, wavPath, timeoutMs);
}

/** espeak's words moved onto Pico's timeline (see the top of this file); each lasts until the next starts. */
function warpWords(text: string, words: readonly WordTiming[], fromPauses: Pause[], fromEnd: number, toPauses: Pause[], toEnd: number): WordTiming[] {
  const breaks = phraseBreaks(text, words).map((index) => {
    const start = words[index]!.start_time;
    return fromPauses.find((pause) => Math.abs(pause.end - start) <= 50) ?? { start, end: start };
  });
  const targets = toPauses.filter((pause) => pause.start > 0 && pause.end < toEnd && pause.end - pause.start >= PHRASE_PAUSE_MS);
  const anchors: [number, number][] = [[0, 0]];
  const pairs = matchInOrder(breaks, fromEnd, targets, toEnd);
  // Where espeak paused and Pico did not ("14." read as a sentence's end), espeak's pause is taken out of its timeline.
  const unpaired = breaks.filter((pause) => !pairs.some(([from]) => from === pause));
  const collapsed = (t: number) => unpaired.reduce((at, pause) => at - Math.max(0, Math.min(t, pause.end) - pause.start), t);
  for (const [from, to] of pairs) anchors.push([collapsed(from.start), to.start], [collapsed(from.end), to.end]);
  anchors.push([Math.max(collapsed(fromEnd), anchors.at(-1)![0] + 1), Math.max(toEnd, anchors.at(-1)![1])]);
  const warp = (time: number) => {
    const t = collapsed(time);
    const i = Math.max(1, anchors.findIndex(([from]) => from >= t));
    const [a, b] = [anchors[i - 1]!, anchors[i] ?? anchors.at(-1)!];
    return b[0] === a[0] ? b[1] : a[1] + ((t - a[0]) * (b[1] - a[1])) / (b[0] - a[0]);
  };
  let previous = 0;
  const starts = words.map(({ start_time }) => {
    const at = warp(start_time);
    const inPause = targets.find((pause) => at >= pause.start && at < pause.end);
    previous = Math.max(previous, Math.round(inPause ? inPause.end : at));
    return previous;
  });
  const end = Math.max(Math.round(toEnd), starts.at(-1) ?? 0);
  // Words moved to the same start (the end of one pause) share the time until the next start by their lengths.
  for (let i = 0; i < starts.length; ) {
    let j = i + 1;
    while (j < starts.length && starts[j] === starts[i]) j++;
    const until = starts[j] ?? end;
    const lengths = words.slice(i, j).map((word) => [...word.text].length);
    const total = lengths.reduce((sum, length) => sum + length, 0);
    let spoken = 0;
    for (let k = i + 1; k < j; k++) starts[k] = starts[i]! + Math.round(((until - starts[i]!) * (spoken += lengths[k - i - 1]!)) / total);
    i = j;
  }
  return words.map(({ text: word }, i) => ({ text: word, start_time: starts[i]!, duration: (starts[i + 1] ?? end) - starts[i]! }));
}

/** The indexes of the words that follow punctuation (where both engines pause), from the written tokens in order. */
function phraseBreaks(text: string, words: readonly WordTiming[]): number[] {
  const tokens = tokenize(text);
  const breaks: number[] = [];
  let at = 0;
  words.forEach((word, index) => {
    while (at < tokens.length && displayed(tokens[at]!.text) !== word.text) at++;
    if (index > 0 && /[.,;:!?…]["'»«“”)]*$/u.test(tokens[at - 1]?.text ?? '')) breaks.push(index);
    if (at < tokens.length) at++;
  });
  return breaks;
}

/**
 * Pairs the breaks with the pauses, both in order, so that as many as possible pair up and each pair sits at about
 * the same share of its audio (dynamic programming over both lists; a break or pause may stay unpaired).
 */
function matchInOrder(breaks: Pause[], fromEnd: number, pauses: Pause[], toEnd: number): [Pause, Pause][] {
  const share = (pause: Pause, end: number) => (pause.start + pause.end) / 2 / end;
  const score = (i: number, j: number) => {
    const distance = Math.abs(share(breaks[i]!, fromEnd) - share(pauses[j]!, toEnd));
    return distance <= SAME_BREAK ? 1 - distance : -Infinity;
  };
  const best = Array.from({ length: breaks.length + 1 }, () => new Array<number>(pauses.length + 1).fill(0));
  for (let i = breaks.length - 1; i >= 0; i--) {
    for (let j = pauses.length - 1; j >= 0; j--) best[i]![j] = Math.max(best[i + 1]![j]!, best[i]![j + 1]!, score(i, j) + best[i + 1]![j + 1]!);
  }
  const pairs: [Pause, Pause][] = [];
  for (let i = 0, j = 0; i < breaks.length && j < pauses.length; ) {
    if (best[i]![j] === score(i, j) + best[i + 1]![j + 1]!) pairs.push([breaks[i++]!, pauses[j++]!]);
    else if (best[i]![j] === best[i + 1]![j]) i++;
    else j++;
  }
  return pairs;
}
