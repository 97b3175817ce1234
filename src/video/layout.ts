// Cuts the narration's timed words into caption scenes: lines that fit the caption block, at most `text_lines`
// lines and `text_words` words per scene, never across a segment; each scene timed from its first word to the next scene.
import type { TimedSegment } from './port.ts';

export interface CaptionWord {
  text: string;
  start: number;
  end: number;
}

export interface Scene {
  lines: CaptionWord[][];
  start: number;
  end: number;
}

export interface LayoutOptions {
  lines: number;
  words: number | null;
  /** Width of the caption block, and of an average character, in pixels. */
  blockWidth: number;
  charWidth: number;
  /** Between words: a space, or nothing for scripts written without spaces (Japanese, Chinese, Thai). */
  separator: string;
  durationMs: number;
  transform: (text: string) => string;
}

/** A scene stays up through a pause shorter than this; past it the captions clear until the next words. */
const HOLD_MS = 1500;

/** CJK and other full-width characters take about twice the width of a Latin letter. */
const widthOf = (text: string, charWidth: number) =>
  [...text].reduce((sum, char) => sum + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\u{1f300}-\u{1faff}]/u.test(char) ? 2 : 1), 0) * charWidth;

export function captionScenes(segments: readonly TimedSegment[], options: LayoutOptions): Scene[] {
  const scenes: Scene[] = [];
  for (const segment of segments) {
    const written = asWritten(segment.text, segment.words.map((word) => word.text.trim()));
    const words = segment.words
      .map((word, at) => ({ text: options.transform(written[at]!), start: word.start_time, end: word.start_time + word.duration }))
      .filter((word) => word.text !== '');
    scenes.push(...scenesOf(words, options));
  }
  scenes.forEach((scene, index) => {
    const next = scenes[index + 1];
    const last = scene.lines.at(-1)!.at(-1)!;
    scene.end = next ? (next.start - last.end < HOLD_MS ? next.start : last.end + HOLD_MS / 2) : options.durationMs;
  });
  return scenes;
}

/**
 * Timed words may come without the punctuation around them ("video" for "video,"): each is found in the segment's
 * text, in order, and given back the punctuation written against it.
 */
function asWritten(text: string | null, words: string[]): string[] {
  if (!text) return words;
  let from = 0;
  return words.map((word) => {
    const found = word === '' ? -1 : text.indexOf(word, from);
    if (found < 0) return word;
    let start = found;
    let end = found + word.length;
    while (start > from && /[\p{Ps}\p{Pi}"'¿¡]/u.test(text[start - 1]!)) start -= 1;
    while (end < text.length && /[\p{Pe}\p{Pf}\p{Po}]/u.test(text[end]!)) end += 1;
    from = end;
    return text.slice(start, end);
  });
}

function scenesOf(words: CaptionWord[], options: LayoutOptions): Scene[] {
  const scenes: Scene[] = [];
  let lines: CaptionWord[][] = [];
  let line: CaptionWord[] = [];
  let count = 0;
  const close = () => {
    if (line.length > 0) lines.push(line);
    if (lines.length > 0) scenes.push({ lines, start: lines[0]![0]!.start, end: 0 });
    lines = [];
    line = [];
    count = 0;
  };
  for (const word of words) {
    const widened = [...line, word].map((each) => each.text).join(options.separator);
    if (line.length > 0 && widthOf(widened, options.charWidth) > options.blockWidth) {
      lines.push(line);
      line = [];
      if (lines.length >= options.lines) close();
    }
    if (options.words !== null && count >= options.words) close();
    line.push(word);
    count += 1;
  }
  close();
  return scenes;
}
