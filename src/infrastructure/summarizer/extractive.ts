// The extractive summarizer: picks the article's most central sentences (TextRank over TF-IDF vectors) within the
// token limit, and reads them in the article's order. Offline and deterministic: the embedded default.
import { EXTRACTIVE_MODEL, estimateTokens, type Summarizer, type SummaryRequest } from './port.ts';

/** Longest summary the item keeps (its `summary` field holds at most 2000 characters). */
export const MAX_SUMMARY_CHARS = 2000;
const DAMPING = 0.85;
const ITERATIONS = 40;
/** Sentences shorter than this many words (datelines, captions, "Read more.") are chosen only when nothing else is. */
const MIN_WORDS = 4;

interface Sentence {
  text: string;
  index: number;
  words: string[];
  tokens: number;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

export function sentencesOfText(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => [...segmenter.segment(paragraph.replace(/\s+/g, ' ').trim())].map((part) => part.segment.trim()))
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

const wordsOf = (sentence: string) => (sentence.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 2);

/** Each sentence's centrality: PageRank over the graph of cosine similarities of their TF-IDF vectors (summing to 1). */
function centrality(sentences: Sentence[]): number[] {
  const count = sentences.length;
  const documentFrequency = new Map<string, number>();
  for (const sentence of sentences) for (const word of new Set(sentence.words)) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const vectors = sentences.map((sentence) => {
    const vector = new Map<string, number>();
    for (const word of sentence.words) vector.set(word, (vector.get(word) ?? 0) + 1);
    let norm = 0;
    for (const [word, frequency] of vector) {
      const weight = frequency * Math.log(1 + count / documentFrequency.get(word)!);
      vector.set(word, weight);
      norm += weight * weight;
    }
    return { vector, norm: Math.sqrt(norm) };
  });
  const similarity = vectors.map((a, i) =>
    vectors.map((b, j) => {
      if (i === j || a.norm === 0 || b.norm === 0) return 0;
      let dot = 0;
      for (const [word, weight] of a.vector) dot += weight * (b.vector.get(word) ?? 0);
      return dot / (a.norm * b.norm);
    }),
  );
  const outgoing = similarity.map((row) => row.reduce((sum, value) => sum + value, 0));
  let rank = sentences.map(() => 1 / count);
  for (let round = 0; round < ITERATIONS; round++) {
    rank = sentences.map((_, i) => {
      let incoming = 0;
      for (let j = 0; j < count; j++) if (outgoing[j]! > 0) incoming += (similarity[j]![i]! / outgoing[j]!) * rank[j]!;
      return (1 - DAMPING) / count + DAMPING * incoming;
    });
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
  const all = sentencesOfText(text).map((sentence, index) => ({ text: sentence, index, words: wordsOf(sentence), tokens: estimateTokens(sentence) }));
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
