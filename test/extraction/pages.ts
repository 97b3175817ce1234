// Pages the extraction tests serve on loopback: a real article in the usual clutter, and hostile ones.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const ARTICLE = [
  'The river council approved the new flood barrier on Tuesday evening.',
  'Work on the eastern bank begins in March and should last two years.',
  'Residents asked for a footpath along the top of the wall, and the council agreed.',
];
export const CLUTTER = ['Home News Sport Weather', 'We use cookies to improve your experience', 'Buy cheap watches now', 'You may also like these stories', 'Copyright Example Gazette all rights reserved'];

export const articlePage = (extra = '') => `<!doctype html><html><head><title>Flood barrier | Example Gazette</title>
<meta name="beyondwords-title" content="Council approves flood barrier">
<meta property="og:title" content="Flood barrier approved - Gazette">
<meta name="beyondwords-author" content="Ada Lovelace">
<meta property="article:published_time" content="2026-03-04T08:30:00Z">
${extra}</head><body>
<nav class="menu"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a></nav>
<div id="cookie-banner" class="cookie consent"><p>We use cookies to improve your experience. <button>Accept</button></p></div>
<div class="ad advert sponsor"><a href="/ads">Buy cheap watches now</a></div>
<main><article><h1>Council approves flood barrier</h1>
${ARTICLE.map((text) => `<p>${text}</p>`).join('\n')}
<img src="/barrier.jpg" data-beyondwords-image="true" alt="The wall">
</article>
<aside class="related"><h3>Related</h3><ul><li><a href="/a">You may also like these stories</a></li><li><a href="/b">More from the river</a></li></ul></aside></main>
<footer><p>Copyright Example Gazette all rights reserved</p></footer>
</body></html>`;

/** The article only exists once its script has run. */
export const scriptPage = `<!doctype html><html><head><title>App</title></head><body><div id="app">Loading</div>
<script>
  const texts = ${JSON.stringify(ARTICLE)};
  setTimeout(() => {
    document.getElementById('app').innerHTML = '<article><h1>Council approves flood barrier</h1>' + texts.map((t) => '<p>' + t + '</p>').join('') + '</article>';
  }, 50);
</script></body></html>`;

/** "Café society: naïve “quotes” cost £5" and more, in windows-1252 bytes, declared only by the page's meta. */
export const LATIN1_SENTENCE = 'The café on the quay serves crème brûlée to a naïve tourist for £5, “quoted” as the best in town.';
export const latin1Page = () => {
  const html = `<!doctype html><html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><title>Quay</title></head><body><article><h1>Quay</h1><p>${LATIN1_SENTENCE}</p><p>The owner has run it since the harbour reopened in the spring.</p></article></body></html>`;
  return encodeWindows1252(html);
};

function encodeWindows1252(text: string): Buffer {
  const special: Record<string, number> = { '“': 0x93, '”': 0x94, '€': 0x80, '’': 0x92, '‘': 0x91, '–': 0x96, '—': 0x97 };
  return Buffer.from([...text].map((char) => special[char] ?? char.charCodeAt(0)));
}

export interface PageHost {
  server: Server;
  base: string;
  seen: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startPageHost(): Promise<PageHost> {
  const seen: PageHost['seen'] = [];
  const open = new Set<import('node:net').Socket>();
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    seen.push({ url, headers: request.headers });
    const html = (body: string | Buffer, type = 'text/html; charset=utf-8') => void response.writeHead(200, { 'content-type': type }).end(body);
    if (url === '/article' || url === '/with-headers') return html(articlePage());
    if (url === '/spa') return html(scriptPage);
    if (url === '/latin1') return html(latin1Page(), 'text/html');
    if (url === '/missing') return void response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    if (url === '/huge') {
      // 50 MB, no Content-Length: only counting what arrives can stop it.
      response.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(1024 * 1024, '<p>filler text</p>');
      let sent = 0;
      const push = () => {
        while (sent < 50) {
          sent++;
          if (!response.write(chunk)) return void response.once('drain', push);
        }
        response.end();
      };
      response.on('error', () => undefined);
      return push();
    }
    if (url === '/never') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<!doctype html><html><body><p>Starting');
      return; // never ends
    }
    const loop = /^\/loop\/(\d+)$/.exec(url);
    if (loop) return void response.writeHead(302, { location: `/loop/${Number(loop[1]) + 1}` }).end();
    if (url === '/to-metadata') return void response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    response.writeHead(404).end();
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    base,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
