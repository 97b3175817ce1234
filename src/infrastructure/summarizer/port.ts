// The summarizer port: turns an article's text into a short script for narration. Adapters beside it: the extractive
// summarizer (offline, the embedded default) and an OpenAI-compatible chat-completions endpoint.

export interface SummaryRequest {
  /** The article as plain text, paragraphs separated by blank lines. */
  text: string;
  /** One of `models()`. */
  model: string;
  /** The instruction a generative model follows; the extractive summarizer has none to follow. */
  prompt: string;
  /** 0 to 2; generative models only. */
  temperature: number;
  /** The most tokens the summary may take (`max_tokens` for a generative model). */
  maxTokens: number;
}

export interface Summarizer {
  /** The model names requests may name: `extractive` always, the configured generative model when there is one. */
  models(): string[];
  /** The model used when neither the request nor the settings name one. */
  defaultModel(): string;
  /** The summary's text; fails with a SummarizerError. */
  summarize(request: SummaryRequest): Promise<string>;
}

export type SummarizerFailure =
  | 'unknown-model' // the request names a model this service does not offer
  | 'timeout' // the endpoint did not answer within its time limit
  | 'upstream' // the endpoint answered an error status, or could not be reached
  | 'malformed'; // the endpoint answered something that is not a chat completion with text

export class SummarizerError extends Error {
  override readonly name = 'SummarizerError';
  constructor(
    readonly reason: SummarizerFailure,
    message: string,
  ) {
    super(message);
  }
}

export const EXTRACTIVE_MODEL = 'extractive';

/**
 * A rough, deliberately generous count of the tokens a text takes in the tokenizers of common chat models: a word of
 * up to four characters is one token, longer ones a token per four characters, each punctuation mark one. It never
 * counts fewer than those tokenizers do for English prose, so a summary within the limit by this count is within it there.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)) tokens += Math.ceil(match[0].length / 4);
  return tokens;
}

/** Requests name `extractive` or the configured model; anything else fails before any work. */
export function routedSummarizer(extractive: Summarizer, generative?: Summarizer): Summarizer {
  const models = [...extractive.models(), ...(generative?.models() ?? [])];
  return {
    models: () => models,
    defaultModel: () => generative?.defaultModel() ?? extractive.defaultModel(),
    async summarize(request) {
      if (extractive.models().includes(request.model)) return extractive.summarize(request);
      if (generative?.models().includes(request.model)) return generative.summarize(request);
      throw new SummarizerError('unknown-model', `${request.model} is not offered (models: ${models.join(', ')})`);
    },
  };
}
