// A loopback server the feed tests publish their feeds on: it answers conditional GETs with 304 and keeps the
// requests it saw.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Published {
  body: string | Buffer;
  type: string;
  etag?: string;
  lastModified?: string;
  status?: number;
  location?: string;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Sends the head and the body's start, and never ends. */
  endless?: boolean;
}

export interface FeedServer {
  base: string;
  publish(pathname: string, feed: Published): void;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, '../fixtures/feeds', name), 'utf8');

export async function startFeedServer(): Promise<FeedServer> {
  const feeds = new Map<string, Published>();
  const requests: FeedServer['requests'] = [];
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    requests.push({ path: pathname, headers: request.headers });
    const feed = feeds.get(pathname);
    if (!feed) return void response.writeHead(404).end('not found');
    if (feed.location) return void response.writeHead(feed.status ?? 302, { location: feed.location }).end();
    const fresh =
      (feed.etag && request.headers['if-none-match'] === feed.etag) || (!feed.etag && feed.lastModified && request.headers['if-modified-since'] === feed.lastModified);
    const headers: Record<string, string> = { 'content-type': feed.type };
    if (feed.etag) headers.etag = feed.etag;
    if (feed.lastModified) headers['last-modified'] = feed.lastModified;
    if (feed.endless) {
      response.writeHead(200, headers).write(feed.body);
      return;
    }
    const answer = () => (fresh ? response.writeHead(304, headers).end() : response.writeHead(feed.status ?? 200, headers).end(feed.body));
    if (feed.delayMs) setTimeout(answer, feed.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    publish: (pathname, feed) => feeds.set(pathname, feed),
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
