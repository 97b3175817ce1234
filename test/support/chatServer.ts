// A small OpenAI-compatible chat-completions server on loopback, for tests of the summarizer adapter: it records
// each request and answers as the test tells it to (a summary, an error status, nonsense, or nothing for a while).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export type ChatAnswer =
  | { kind: 'summary'; text: string }
  | { kind: 'status'; status: number; body: string }
  | { kind: 'raw'; body: string }
  | { kind: 'silent'; ms: number };

export interface ChatServer {
  /** The API base, as SUMMARIZER_URL takes it. */
  base: string;
  requests: ChatRequest[];
  /** What the next requests get, until changed. */
  answer: ChatAnswer;
  close(): Promise<void>;
}

export async function startChatServer(): Promise<ChatServer> {
  const state: ChatServer = { base: '', requests: [], answer: { kind: 'summary', text: 'A summary.' }, close: async () => undefined };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    state.requests.push({ path: request.url ?? '', headers: request.headers, body: text ? JSON.parse(text) : null });
    const answer = state.answer;
    switch (answer.kind) {
      case 'summary': {
        const completion = {
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: state.requests.at(-1)?.body?.model ?? 'test',
          choices: [{ index: 0, message: { role: 'assistant', content: answer.text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion));
        return;
      }
      case 'status':
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
        return;
      case 'raw':
        response.writeHead(200, { 'content-type': 'application/json' }).end(answer.body);
        return;
      case 'silent': {
        const timer = setTimeout(() => response.writeHead(200).end('{}'), answer.ms);
        response.once('close', () => clearTimeout(timer));
        return;
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return state;
}
