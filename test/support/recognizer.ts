// The speech-quality tests' listener: Whisper (test/support/recognize.py, a long-lived Python process in the venv of
// scripts/install-venv.sh; tiny.en for English, the multilingual base for the other languages, the language forced),
// and the two measures taken with it: word error rate against the written text, and how closely the word times of
// our API agree with the times the recognizer hears the words at. The measures for other languages (character error
// rate, Hindi heard in Urdu script) are in test/support/recognizerLanguages.ts.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './server.ts';
import { comparedWords } from './spokenWords.ts';

export { comparedWords, spokenWords, type ComparedWord } from './spokenWords.ts';

/** Where scripts/install-venv.sh puts the venv: beside the tools directory, like Piper's. */
export const RECOGNIZER_PYTHON = path.join(path.dirname(process.env.TOOLS_DIR ?? '/root/.cache/service-tools/bin'), 'recognizer', 'bin', 'python');

export interface HeardWord {
  word: string;
  /** ms from the start of the file */
  start: number;
}

export interface Transcript {
  text: string;
  words: HeardWord[];
}

export interface Recognizer {
  /**
   * What is heard in a file, in a language (`fr`, or a service code, `fr_FR`; English when left out), which the
   * recognizer is told rather than left to guess.
   */
  transcribe(file: string, language?: string): Promise<Transcript>;
  close(): void;
}

/** Whisper's code of a language: its ISO 639-1 part (`pt` of `pt_BR`; `zh` of `zh_CN`). */
export const whisperLanguage = (language: string) => language.split(/[_-]/)[0]!.toLowerCase();

/**
 * Starts the helper (about a second to load tiny.en; the base model loads with the first request in another language,
 * another second); requests are answered one at a time, in order.
 */
export function startRecognizer(): Recognizer {
  if (!existsSync(RECOGNIZER_PYTHON)) throw new Error(`no recognizer at ${RECOGNIZER_PYTHON}: run npm run setup`);
  const child = spawn(RECOGNIZER_PYTHON, [path.join(ROOT, 'test/support/recognize.py')], {
    env: { ...process.env, HF_HUB_OFFLINE: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const waiting: Array<{ resolve: (transcript: Transcript) => void; reject: (error: Error) => void }> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as { error?: string; text: string; words: Array<{ word: string; start: number }> };
    const next = waiting.shift()!;
    if (answer.error) next.reject(new Error(`recognizer: ${answer.error}`));
    else next.resolve({ text: answer.text, words: answer.words.map(({ word, start }) => ({ word, start: Math.round(start * 1000) })) });
  });
  child.once('exit', (code) => {
    for (const request of waiting.splice(0)) request.reject(new Error(`recognizer exited with ${code}: ${stderr}`));
  });
  return {
    transcribe: (file, language = 'en') =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${JSON.stringify({ path: file, language: whisperLanguage(language) })}\n`);
      }),
    close: () => child.stdin.end(),
  };
}

/** A pair of an optimal alignment: indices into the two lists, `null` for an insertion or deletion. */
export type Pair = [number | null, number | null];

/** Word-level Levenshtein alignment of two word lists. */
export function align(reference: readonly string[], heard: readonly string[]): Pair[] {
  const n = reference.length;
  const m = heard.length;
  const cost = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i += 1) {
    for (let j = 1; j <= m; j += 1) {
      const substitution = cost[i - 1]![j - 1]! + (reference[i - 1] === heard[j - 1] ? 0 : 1);
      cost[i]![j] = Math.min(substitution, cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1);
    }
  }
  const pairs: Pair[] = [];
  for (let i = n, j = m; i > 0 || j > 0; ) {
    if (i > 0 && j > 0 && cost[i]![j] === cost[i - 1]![j - 1]! + (reference[i - 1] === heard[j - 1] ? 0 : 1)) pairs.push([--i, --j]);
    else if (i > 0 && cost[i]![j] === cost[i - 1]![j]! + 1) pairs.push([--i, null]);
    else pairs.push([null, --j]);
  }
  return pairs.reverse();
}

/** Substitutions, deletions and insertions over the number of reference words. */
export function wordErrorRate(reference: readonly string[], heard: readonly string[]): number {
  const errors = align(reference, heard).filter(([i, j]) => i === null || j === null || reference[i] !== heard[j]).length;
  return errors / reference.length;
}

/** The runs where two word lists differ, as written: `[["ferry"], ["water", "taxi"]]` for each run. */
export function differences(before: readonly string[], after: readonly string[]): Array<[string[], string[]]> {
  const runs: Array<[string[], string[]]> = [];
  let run: [string[], string[]] | null = null;
  for (const [i, j] of align(before, after)) {
    if (i !== null && j !== null && before[i] === after[j]) {
      run = null;
      continue;
    }
    if (!run) runs.push((run = [[], []]));
    if (i !== null) run[0].push(before[i]!);
    if (j !== null) run[1].push(after[j]!);
  }
  return runs;
}

/** A written word of an item with its start in the item's audio, ms. */
export interface TimedWord {
  text: string;
  start: number;
}

/** The spoken words of an item (GET …?segments=full&words=full), word times made absolute with their segment's start. */
export function itemWords(item: { segments: Array<{ content_type: string; start_time: number; words?: Array<{ text: string; start_time: number }> }> }): TimedWord[] {
  return item.segments
    .filter((segment) => segment.content_type === 'text')
    .flatMap((segment) => segment.words!.map((word) => ({ text: word.text, start: segment.start_time + word.start_time })));
}

export interface Agreement {
  /** Written words whose start is within the tolerance of the recognizer's start for the word it heard there. */
  within: number;
  /** Written words. */
  total: number;
  /** |our start − the recognizer's| of every written word aligned with a heard word, ms. */
  offsets: number[];
}

/**
 * Aligns the written words with the heard ones (by their compared words) and compares the start of each written
 * word with the start of the heard word its first compared word is aligned with, when that is also the heard word's
 * first. A written word the recognizer did not hear counts against the agreement.
 */
export function timingAgreement(written: readonly TimedWord[], heard: readonly HeardWord[], toleranceMs: number): Agreement {
  const reference = comparedWords(written.map((word) => word.text));
  const recognized = comparedWords(heard.map((word) => word.word));
  const offsets: number[] = [];
  for (const [i, j] of align(
    reference.map((word) => word.word),
    recognized.map((word) => word.word),
  )) {
    if (i === null || j === null) continue;
    const firstOfWritten = i === 0 || reference[i - 1]!.owner !== reference[i]!.owner;
    const firstOfHeard = j === 0 || recognized[j - 1]!.owner !== recognized[j]!.owner;
    if (firstOfWritten && firstOfHeard) offsets.push(Math.abs(written[reference[i]!.owner]!.start - heard[recognized[j]!.owner]!.start));
  }
  return { within: offsets.filter((offset) => offset <= toleranceMs).length, total: written.length, offsets };
}

/** Characters to change, add or remove to turn one word into the other. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * A heard word taken for an expected one: the same, or for a word of five letters or more, the same first letter and
 * at most two letters apart ("docker" for "doctor", not "every" for "ferry"). A number must be the same number.
 */
const nearWord = (said: string, expected: string) =>
  said === expected || (/^\p{L}{5,}$/u.test(expected) && said[0] === expected[0] && editDistance(said, expected) <= 2);

/**
 * Whether the heard words hold the phrase, each word heard as it or near it (`nearWord`: tiny.en hears Piper's
 * "doctor" as "docker" on some readings, "ferries" as "fairies"): which word a form was read as shows in its letters,
 * while a symbol read out ("d r", "pound sign") is a different word, not a near one.
 */
export function heardPhrase(heard: readonly string[], phrase: readonly string[]): boolean {
  return heard.some((_, at) => phrase.every((word, offset) => heard[at + offset] !== undefined && nearWord(heard[at + offset]!, word)));
}
