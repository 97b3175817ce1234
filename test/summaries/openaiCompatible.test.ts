// The OpenAI-compatible summarizer adapter against a small chat-completions server of the test's own: what it sends,
// and how timeouts, error answers and malformed answers end (502/504 in the error shape, nothing changed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chatServer.ts';
import { startServer, type TestServer } from '../support/server.ts';

const BODY = '<p>The council approved a new flood barrier on Tuesday. It will protect four hundred homes.</p><p>Work starts in spring.</p>';

let chat: ChatServer;
let server: TestServer;
beforeAll(async () => {
  chat = await startChatServer();
  server = await startServer({
    env: { SUMMARIZER_URL: chat.base, SUMMARIZER_MODEL: 'qwen2.5-1.5b-instruct', SUMMARIZER_API_KEY: 'sk-test-123', SUMMARIZER_TIMEOUT_MS: '1500' },
  });
});
afterAll(async () => {
  await server?.stop();
  await chat?.close();
});

const newItem = async () => (await server.request('POST', '/v1/projects/1/content', { body: { title: 'Barrier', body: BODY } })).body;
const itemOf = async (id: string) => (await server.request('GET', `/v1/projects/1/content/${id}?segments=full`)).body;

describe('the OpenAI-compatible summarizer', () => {
  it('is the default model, sent the prompt, the article, the temperature and max_tokens with the key', async () => {
    chat.answer = { kind: 'summary', text: 'The council approved a flood barrier.\nIt protects four hundred homes.' };
    expect((await server.request('GET', '/v1/projects/1/summarization_settings')).body.models).toEqual(['extractive', 'qwen2.5-1.5b-instruct']);
    const item = await newItem();
    const reply = await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`, { body: { prompt: 'A two-sentence teaser.', temperature: 0.7, limit_token_usage: 90 } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.map((segment: any) => segment.text).join(' ')).toBe('The council approved a flood barrier. It protects four hundred homes.');
    const sent = chat.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test-123');
    expect(sent.body).toMatchObject({ model: 'qwen2.5-1.5b-instruct', temperature: 0.7, max_tokens: 90, stream: false });
    expect(sent.body.messages[0]).toEqual({ role: 'system', content: 'A two-sentence teaser.' });
    expect(sent.body.messages[1].role).toBe('user');
    expect(sent.body.messages[1].content).toContain('The council approved a new flood barrier on Tuesday.');
    expect((await itemOf(item.id)).summary).toBe('The council approved a flood barrier. It protects four hundred homes.');
  });

  it('leaves the extractive model a request away, without calling the endpoint', async () => {
    const item = await newItem();
    const calls = chat.requests.length;
    const reply = await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`, { body: { model: 'extractive', limit_token_usage: 30 } });
    expect(reply.status).toBe(200);
    expect(chat.requests.length).toBe(calls);
  });

  it('answers 504 when the endpoint does not answer in time, 502 for error statuses and malformed answers, changing nothing', async () => {
    const item = await newItem();
    const before = await itemOf(item.id);
    const cases: [ChatServer['answer'], number, string][] = [
      [{ kind: 'silent', ms: 5_000 }, 504, 'did not answer within 1500 ms'],
      [{ kind: 'status', status: 500, body: '{"error":{"message":"model crashed"}}' }, 502, 'answered 500: model crashed'],
      [{ kind: 'status', status: 401, body: '{"error":"bad key"}' }, 502, 'answered 401: bad key'],
      [{ kind: 'raw', body: '<html>proxy error</html>' }, 502, 'not JSON'],
      [{ kind: 'raw', body: '{"choices":[]}' }, 502, 'choices[0].message.content'],
      [{ kind: 'summary', text: '   ' }, 502, 'empty summary'],
      [{ kind: 'raw', body: `{"choices":[{"message":{"content":"${'word '.repeat(300_000)}"}}]}` }, 502, 'larger than 1048576 bytes'],
      [{ kind: 'status', status: 302, body: '' }, 502, 'answered 302'],
    ];
    for (const [answer, status, message] of cases) {
      chat.answer = answer;
      const started = Date.now();
      const reply = await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`);
      expect(reply.status, JSON.stringify(answer)).toBe(status);
      expect(reply.body).toEqual({ code: status, message: expect.stringContaining(message) });
      expect(Date.now() - started).toBeLessThan(4_000);
    }
    expect(await itemOf(item.id)).toEqual(before);
    expect((await server.request('GET', '/health', { key: null })).status).toBe(200);
  });
});
