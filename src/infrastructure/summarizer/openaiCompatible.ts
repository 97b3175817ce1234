// The generative summarizer: an OpenAI-compatible chat-completions endpoint (a hosted provider, or a local
// llama.cpp server, Ollama or vLLM), called through the guarded fetcher with a time limit and a size limit.
import { FetchError, guardedFetch } from '../fetch/fetcher.ts';
import { MAX_SUMMARY_CHARS } from './extractive.ts';
import { SummarizerError, type Summarizer, type SummaryRequest } from './port.ts';

export interface OpenAiCompatibleOptions {
  /** The API's base (`http://127.0.0.1:11434/v1`) or its chat-completions URL itself. */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/** A chat completion is small; more than this is not one. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export const chatCompletionsUrl = (url: string) => (/\/chat\/completions\/?$/.test(url) ? url : `${url.replace(/\/+$/, '')}/chat/completions`);

export function createOpenAiCompatibleSummarizer(options: OpenAiCompatibleOptions): Summarizer {
  const endpoint = chatCompletionsUrl(options.url);
  return {
    models: () => [options.model],
    defaultModel: () => options.model,
    async summarize(request: SummaryRequest) {
      const body = JSON.stringify({
        model: request.model,
        messages: [
          { role: 'system', content: request.prompt },
          { role: 'user', content: request.text },
        ],
        temperature: request.temperature,
        max_tokens: request.maxTokens,
        stream: false,
      });
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const answer = await exchange(endpoint, headers, body, options.timeoutMs);
      return summaryOf(answer);
    },
  };
}

/**
 * The endpoint is the operator's own choice (often a model server on this machine or the private network), so
 * private addresses are allowed; cloud metadata addresses stay refused, and a redirect is an error, not followed.
 */
async function exchange(endpoint: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<string> {
  const started = Date.now();
  try {
    const response = await guardedFetch(endpoint, { method: 'POST', headers, body, maxBytes: MAX_ANSWER_BYTES, timeoutMs, redirect: 'manual', allowPrivate: true });
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (response.status < 200 || response.status >= 300) {
      throw new SummarizerError('upstream', `the summarizer answered ${response.status}${detailOf(text)}`);
    }
    return text;
  } catch (error) {
    if (error instanceof SummarizerError) throw error;
    if (error instanceof FetchError && error.reason === 'timeout') {
      throw new SummarizerError('timeout', `the summarizer did not answer within ${timeoutMs} ms`);
    }
    const reason = error instanceof FetchError ? error.message : String(error);
    throw new SummarizerError('upstream', `the summarizer could not be reached after ${Date.now() - started} ms: ${reason}`);
  }
}

/** The provider's own error message, when its answer has one (`{"error": {"message": ...}}`), kept short. */
function detailOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    return typeof message === 'string' && message.trim() ? `: ${message.trim().slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

function summaryOf(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SummarizerError('malformed', 'the summarizer answered something that is not JSON');
  }
  const content = (parsed as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new SummarizerError('malformed', 'the summarizer answered no choices[0].message.content');
  const summary = content.replace(/\s+/g, ' ').trim();
  if (!summary) throw new SummarizerError('malformed', 'the summarizer answered an empty summary');
  return clip(summary);
}

/** A summary longer than the item keeps ends at its last whole sentence within the bound. */
function clip(summary: string): string {
  if (summary.length <= MAX_SUMMARY_CHARS) return summary;
  const head = summary.slice(0, MAX_SUMMARY_CHARS);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  return end > 0 ? head.slice(0, end + 1) : head.slice(0, head.lastIndexOf(' ') > 0 ? head.lastIndexOf(' ') : MAX_SUMMARY_CHARS);
}
