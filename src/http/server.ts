// The HTTP server around the app: timeouts so slow or idle clients cannot hold connections, and protocol errors in the error shape.
import http from 'node:http';
import type { Duplex } from 'node:stream';

export interface ServerTimeouts {
  /** Time a client has to send its request headers (HTTP_HEADERS_TIMEOUT_MS). */
  headersMs: number;
  /** Time a client has to send its whole request, body included (HTTP_REQUEST_TIMEOUT_MS). */
  requestMs: number;
}

/** Above the 60 s idle timeout of common load balancers, so they never reuse a connection we just closed. */
const KEEP_ALIVE_MS = 65_000;
/** A connection on which nothing moves either way for this long (a reader that stopped reading) is closed. */
const IDLE_SOCKET_MS = 120_000;
/** How often Node checks the headers and request timeouts; its default of 30 s would let them overrun by as much. */
const TIMEOUT_CHECK_MS = 1_000;

export function createHttpServer(handler: http.RequestListener, timeouts: ServerTimeouts): http.Server {
  const server = http.createServer(
    {
      // Node refuses a headers timeout longer than the request timeout; the whole request bounds its headers anyway.
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    },
    handler,
  );
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.timeout = IDLE_SOCKET_MS;
  server.on('clientError', answerClientError);
  return server;
}

const protocolErrors: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/** Requests Node could not parse, or that took too long, get the error shape too, then the connection closes. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] = protocolErrors[error.code ?? ''] ?? [400, 'Bad Request'];
  const body = JSON.stringify({ code: status, message });
  socket.end(
    `HTTP/1.1 ${status} ${message}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
