// Turns espeak-ng's word events into timed words of the text as written.
//
// How word times are derived. libespeak-ng raises a WORD event as it starts synthesizing a word:
// `audio_position` is the start in ms from the beginning of the generated audio (counted in
// samples, so exact to the ms; espeak-words drops the audio's leading silence and moves the starts
// back by as much), `text_position` the 1-based offset of the word in Unicode code points (not
// bytes, not UTF-16 units) and `length` its length in code points. A word starts at
// its first event and lasts until the next word starts (so it includes the pause after it); the
// last word lasts until the audio becomes silent (the samples minus their trailing silence).
//
// The words reported are the text's whitespace-separated tokens, which is what a reader sees and a
// player highlights. espeak's events do not map one to one onto them:
// - a token may be spoken as several words ("1996", "and/or", "program--to"), with offsets inside
//   the token or on the space before it: an event belongs to the token containing its offset, or
//   else the next one, and the token's first event counts, unless it came from the space before it
//   (an emoji's second word is reported there) and a later one sits on the token's first character;
// - at a clause boundary espeak may repeat an earlier offset (with length 0): events that do not
//   move forward in the text are dropped;
// - its dictionary speaks some phrases as one word ("per cent", "has been", "of the") and reports
//   only the first, sometimes with the second's offset inside the first: the tokens left without
//   an event share the time of the timed token before them, in proportion to their length.

export interface WordEvent {
  start: number; // ms
  pos: number; // 1-based code point offset
  len: number; // code points
}

export interface WordTiming {
  text: string;
  start_time: number; // ms from the segment start
  duration: number; // ms
}

export interface Token {
  start: number; // code point offset of the first character
  end: number; // code point offset just past the token
  text: string;
}

export const WORDLIKE = /[\p{L}\p{N}]/u; // untimed tokens without a letter or digit ("—", "&") were not spoken

export function timeWords(text: string, events: readonly WordEvent[], audibleEndMs: number): WordTiming[] {
  const tokens = tokenize(text);
  const timed: { index: number; start: number; onToken: boolean }[] = [];
  let next = 0;
  for (const event of events) {
    const at = event.pos - 1;
    const previous = timed.at(-1);
    if (previous && event.start < previous.start) continue;
    if (previous && at < tokens[previous.index]!.end) {
      if (!previous.onToken && at === tokens[previous.index]!.start) Object.assign(previous, { start: event.start, onToken: true });
      continue;
    }
    while (next < tokens.length && tokens[next]!.end <= at) next++;
    const token = tokens[next];
    if (!token) break;
    timed.push({ index: next, start: event.start, onToken: at >= token.start });
    next++;
  }
  return wordsOf(tokens, timed, audibleEndMs);
}

/**
 * The written words from the tokens that have a start (in order, increasing): each lasts until the next one
 * starts, the last until the audio becomes silent; the tokens between share the time of the timed one before them.
 */
export function wordsOf(tokens: readonly Token[], timed: readonly { index: number; start: number }[], audibleEndMs: number): WordTiming[] {
  return timed.flatMap(({ index, start }, i) => {
    const following = timed[i + 1];
    const end = following?.start ?? Math.max(start, Math.round(audibleEndMs));
    const untimed = tokens.slice(index + 1, following?.index ?? tokens.length).filter((token) => WORDLIKE.test(token.text));
    return share([tokens[index]!, ...untimed].map((token) => displayed(token.text)), start, end);
  });
}

/** Splits [start, end) among words in proportion to their length in code points. */
function share(words: string[], start: number, end: number): WordTiming[] {
  const lengths = words.map((word) => [...word].length);
  const total = lengths.reduce((sum, length) => sum + length, 0);
  let spoken = 0;
  let at = start;
  return words.map((text, i) => {
    spoken += lengths[i]!;
    const until = start + Math.round(((end - start) * spoken) / total);
    const word = { text, start_time: at, duration: until - at };
    at = until;
    return word;
  });
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let current: Token | undefined;
  let offset = 0;
  for (const char of text) {
    if (/\s/u.test(char)) {
      current = undefined;
    } else if (current) {
      current.end = offset + 1;
      current.text += char;
    } else {
      current = { start: offset, end: offset + 1, text: char };
      tokens.push(current);
    }
    offset++;
  }
  return tokens;
}

/** The token without the punctuation around it ("“test”," → "test"), unless that leaves nothing. */
export function displayed(token: string): string {
  return token.replace(/^\p{P}+|\p{P}+$/gu, '') || token;
}
