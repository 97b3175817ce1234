// Turns Piper's phoneme durations into timed words of the text as written.
//
// How word times are derived. The voice model predicts how many audio samples each phoneme lasts; the
// worker reports every phoneme spoken with that count (so a phoneme starts where the ones before it end,
// exact to the sample). What Piper does not say is which written word a phoneme came from: its phonemizer
// (espeak-ng) works on whole sentences, spells numbers out ("1996" → four words), joins and rewrites words
// in context. So the worker also phonemizes every whitespace token on its own, and the two phoneme strings
// (the tokens' one after the other, and the spoken one) are aligned by edit distance over their sounds
// (letters and diacritics; stress marks, spaces and punctuation left out). A token starts at the first
// spoken phoneme aligned with one of its own. Tokens that match nothing (a dash, a token the phonemizer
// dropped) or would start before the token ahead of them are left untimed and share the time of the timed
// token before them, as with espeak-ng (see ../wordTimings.ts); a word lasts until the next one starts.
import { tokenize, wordsOf, WORDLIKE, type Token, type WordTiming } from '../wordTimings.ts';

/** A phoneme as Piper spoke it, and how many samples it lasted. */
export type TimedPhoneme = [phoneme: string, samples: number];

const STRESS = new Set(['ˈ', 'ˌ']);
/** The sounds of a phoneme string: letters and combining marks, decomposed, without stress marks. */
const soundsOf = (phonemes: string) => [...phonemes.normalize('NFD')].filter((char) => /[\p{L}\p{M}]/u.test(char) && !STRESS.has(char));

/** Band of the alignment on each side of the diagonal, beyond the difference in length. */
const BAND = 64;

/** `tokens`: the words to time, the text's whitespace tokens unless the engine segmented a text written without spaces. */
export function timePiperWords(
  text: string,
  tokenPhonemes: readonly string[],
  spoken: readonly TimedPhoneme[],
  sampleRate: number,
  audibleEndMs: number,
  tokens: readonly Token[] = tokenize(text),
): WordTiming[] {
  const own = tokenPhonemes.flatMap((phonemes, index) => soundsOf(phonemes).map((sound) => ({ sound, index })));
  const heard: { sound: string; start: number }[] = [];
  let at = 0;
  // A stress mark is a symbol of its own to the model, with a duration in which the stressed sound already
  // starts to be heard: the sound after it starts where the mark does.
  let stressedFrom: number | undefined;
  for (const [phoneme, samples] of spoken) {
    if (STRESS.has(phoneme)) stressedFrom ??= at;
    for (const sound of soundsOf(phoneme)) heard.push({ sound, start: Math.round(((stressedFrom ?? at) * 1000) / sampleRate) });
    if (!STRESS.has(phoneme)) stressedFrom = undefined;
    at += samples;
  }
  const starts = new Map<number, number>();
  for (const [i, j] of align(own.map((o) => o.sound), heard.map((h) => h.sound))) {
    if (!starts.has(own[i]!.index)) starts.set(own[i]!.index, heard[j]!.start);
  }
  const timed: { index: number; start: number }[] = [];
  for (const [index] of tokens.entries()) {
    const start = starts.get(index);
    if (start !== undefined && start >= (timed.at(-1)?.start ?? 0)) timed.push({ index, start });
  }
  // The first written word always counts, from the start of the audio if nothing of it was recognised.
  const first = tokens.findIndex((token) => WORDLIKE.test(token.text));
  if (first >= 0 && first < (timed[0]?.index ?? tokens.length)) timed.unshift({ index: first, start: 0 });
  return wordsOf(tokens, timed, audibleEndMs);
}

/**
 * The pairs [i, j] of a least-cost alignment of a with b (Levenshtein: substitution, insertion and deletion
 * cost 1), matched or substituted, in order; of alignments that cost the same, the one that pairs sounds
 * earliest (a word starts at the first sound heard). Only cells near the diagonal are computed, so that long
 * texts take linear time and memory.
 */
export function align(a: readonly string[], b: readonly string[]): [number, number][] {
  // The backtrack below takes pairs as late as it can: run on the reversed strings, that is as early as it can.
  const n = a.length;
  const m = b.length;
  return latestAlignment([...a].reverse(), [...b].reverse())
    .map(([i, j]): [number, number] => [n - 1 - i, m - 1 - j])
    .reverse();
}

function latestAlignment(a: readonly string[], b: readonly string[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [];
  const width = BAND + Math.abs(n - m);
  const low = (i: number) => Math.max(0, Math.round((i * m) / n) - width);
  const high = (i: number) => Math.min(m, Math.round((i * m) / n) + width);
  const span = 2 * width + 2;
  const FAR = Number.MAX_SAFE_INTEGER;
  // move[i * span + (j - low(i))]: 0 diagonal, 1 from above (a[i-1] left out), 2 from the left (b[j-1] left out).
  const move = new Uint8Array((n + 1) * span);
  let previous = new Float64Array(span).fill(FAR);
  let previousLow = 0;
  for (let j = 0; j <= high(0); j++) {
    previous[j] = j;
    move[j] = 2;
  }
  const costIn = (row: Float64Array, rowLow: number, rowHigh: number, j: number) => (j < rowLow || j > rowHigh ? FAR : row[j - rowLow]!);
  for (let i = 1; i <= n; i++) {
    const rowLow = low(i);
    const rowHigh = high(i);
    const current = new Float64Array(span).fill(FAR);
    for (let j = rowLow; j <= rowHigh; j++) {
      const diagonal = j > 0 ? costIn(previous, previousLow, high(i - 1), j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1) : FAR;
      const above = costIn(previous, previousLow, high(i - 1), j) + 1;
      const left = j > rowLow ? current[j - 1 - rowLow]! + 1 : FAR;
      const best = Math.min(diagonal, above, left);
      current[j - rowLow] = best;
      move[i * span + (j - rowLow)] = best === diagonal ? 0 : best === above ? 1 : 2;
    }
    previous = current;
    previousLow = rowLow;
  }
  const pairs: [number, number][] = [];
  let i = n;
  let j = Math.min(m, high(n));
  while (i > 0 && j > 0) {
    const step = move[i * span + (j - low(i))];
    if (step === 0) pairs.push([--i, --j]);
    else if (step === 1) i--;
    else j--;
  }
  return pairs.reverse();
}
