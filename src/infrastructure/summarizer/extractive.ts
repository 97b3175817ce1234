// The extractive summarizer: picks the article's most central sentences (TextRank over TF-IDF vectors) within the
// token limit, and reads them in the article's order. Offline and deterministic: the embedded default.
import { EXTRACTIVE_MODEL, estimateTokens, type Summarizer, type SummaryRequest } from './port.ts';

/** Longest summary the item keeps (its `summary` field holds at most 2000 characters). */
export const MAX_SUMMARY_CHARS = 2000;
const DAMPING = 0.85;
const ITERATIONS = 40;
/**
 * Sentences ranked at most: the graph has one edge per pair, so its cost grows with the square. Articles put what
 * matters first: a longer one is summarized from its first 250 sentences (about 20,000 characters), which keeps one summary near 100 ms of the event loop (`npm run bench:summaries`).
 */
const MAX_SENTENCES = 250;
/** Sentences shorter than this many words (datelines, captions, "Read more.") are chosen only when nothing else is. */
const MIN_WORDS = 4;

interface Sentence {
  text: string;
  index: number;
  words: string[];
  tokens: number;
}

/**
 * A sentence ends at `.`, `!` or `?` (closing quotes or brackets after it allowed) before a word that starts with a
 * capital or a digit, as the speech engines end one (src/generation/sentences.ts), or after a full-width stop.
 */
const SENTENCE_END = /(?<=[.!?]["'”’)\]]*)\s+(?=["'“‘([]*[\p{Lu}\p{N}])|(?<=[。！？])/u;

export function sentencesOfText(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => paragraph.replace(/\s+/g, ' ').trim().split(SENTENCE_END))
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

const wordsOf = (sentence: string) => (sentence.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 2);

/** Each sentence's centrality: PageRank over the graph of cosine similarities of their TF-IDF vectors (summing to 1). */
function centrality(sentences: Sentence[]): Float64Array {
  const count = sentences.length;
  const ids = new Map<string, number>();
  const documentFrequency: number[] = [];
  const counted = sentences.map((sentence) => {
    const frequency = new Map<number, number>();
    for (const word of sentence.words) {
      let id = ids.get(word);
      if (id === undefined) ids.set(word, (id = ids.size));
      frequency.set(id, (frequency.get(id) ?? 0) + 1);
    }
    for (const id of frequency.keys()) documentFrequency[id] = (documentFrequency[id] ?? 0) + 1;
    return frequency;
  });
  // Sparse vectors as word ids in ascending order with their weights, normalized: a dot product is one merge.
  const vectors = counted.map((frequency) => {
    const entries = [...frequency].sort((a, b) => a[0] - b[0]);
    const weights = entries.map(([id, times]) => times * Math.log(1 + count / documentFrequency[id]!));
    const norm = Math.sqrt(weights.reduce((sum, weight) => sum + weight * weight, 0)) || 1;
    return { ids: Int32Array.from(entries, ([id]) => id), weights: Float64Array.from(weights, (weight) => weight / norm) };
  });
  const similarity = new Float64Array(count * count);
  for (let i = 0; i < count; i++) {
    const a = vectors[i]!;
    for (let j = i + 1; j < count; j++) {
      const b = vectors[j]!;
      let dot = 0;
      for (let x = 0, y = 0; x < a.ids.length && y < b.ids.length; ) {
        if (a.ids[x] === b.ids[y]) dot += a.weights[x++]! * b.weights[y++]!;
        else if (a.ids[x]! < b.ids[y]!) x++;
        else y++;
      }
      similarity[i * count + j] = dot;
      similarity[j * count + i] = dot;
    }
  }
  const outgoing = new Float64Array(count);
  for (let i = 0; i < count; i++) for (let j = 0; j < count; j++) outgoing[i]! += similarity[i * count + j]!;
  let rank = new Float64Array(count).fill(1 / count);
  for (let round = 0; round < ITERATIONS; round++) {
    const next = new Float64Array(count).fill((1 - DAMPING) / count);
    for (let j = 0; j < count; j++) {
      if (outgoing[j] === 0) continue;
      const share = (DAMPING * rank[j]!) / outgoing[j]!;
      for (let i = 0; i < count; i++) next[i]! += similarity[j * count + i]! * share;
    }
    rank = next;
  }
  return rank;
}

/** The first words of a sentence that fit the budget, when no whole sentence does. */
function cut(sentence: string, maxTokens: number): string {
  const words = sentence.split(' ');
  let kept = '';
  for (const word of words) {
    const next = kept ? `${kept} ${word}` : word;
    if (estimateTokens(next) > maxTokens || next.length > MAX_SUMMARY_CHARS) break;
    kept = next;
  }
  return kept;
}

export function extractiveSummary(text: string, maxTokens: number): string {
  const all = sentencesOfText(text).slice(0, MAX_SENTENCES).map((sentence, index) => ({ text: sentence, index, words: wordsOf(sentence), tokens: estimateTokens(sentence) }));
  if (all.length === 0) return '';
  const long = all.filter((sentence) => sentence.text.split(' ').length >= MIN_WORDS);
  const candidates = long.length > 0 ? long : all;
  const ranks = centrality(candidates);
  // News puts what matters first: a gentle lead bias breaks near-ties toward the opening.
  const ranked = candidates
    .map((sentence, at) => ({ sentence, rank: ranks[at]!, score: ranks[at]! * (1 + 1 / (at + 2)) }))
    .sort((a, b) => b.score - a.score || a.sentence.index - b.sentence.index);
  // Room left over is not filled with sentences off the article's subject: those far below the average centrality.
  const least = 1 / (2 * candidates.length);
  const chosen: Sentence[] = [];
  let tokens = 0;
  let chars = 0;
  for (const { sentence, rank } of ranked) {
    if (chosen.length > 0 && rank < least) continue;
    const separator = chosen.length > 0 ? 1 : 0;
    if (tokens + sentence.tokens > maxTokens || chars + separator + sentence.text.length > MAX_SUMMARY_CHARS) continue;
    chosen.push(sentence);
    tokens += sentence.tokens;
    chars += separator + sentence.text.length;
  }
  if (chosen.length === 0) return cut(ranked[0]!.sentence.text, maxTokens);
  return chosen
    .sort((a, b) => a.index - b.index)
    .map((sentence) => sentence.text)
    .join(' ');
}

export function createExtractiveSummarizer(): Summarizer {
  return {
    models: () => [EXTRACTIVE_MODEL],
    defaultModel: () => EXTRACTIVE_MODEL,
    summarize: async (request: SummaryRequest) => extractiveSummary(request.text, request.maxTokens),
  };
}
