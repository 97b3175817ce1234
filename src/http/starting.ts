// What the port answers while the service catches up at start: live for /health, 503 in the error shape for the rest.
import type http from 'node:http';

export function answerWhileStarting(request: http.IncomingMessage, response: http.ServerResponse) {
  const live = request.url === '/health';
  const body = JSON.stringify(live ? { status: 'live' } : { code: 503, message: 'Starting: the service is catching up with its event log' });
  response.writeHead(live ? 200 : 503, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...(live ? {} : { 'Retry-After': '5' }) });
  response.end(body);
}
