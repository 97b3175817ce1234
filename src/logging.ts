// Structured JSON logs (pino) on stdout; every line written while a request is handled carries its request id.
import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

export type Logger = pino.Logger;
/** The plain logging function the capabilities receive: one message, logged at info level. */
export type Log = (message: string) => void;

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

const requestScope = new AsyncLocalStorage<string>();

export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Code deep below a route logs with the plain `log(message)` and still names the request it serves.
    mixin: () => {
      const requestId = requestScope.getStore();
      return requestId ? { request_id: requestId } : {};
    },
  });
}

export const logFunction =
  (logger: Logger): Log =>
  (message) =>
    logger.info(message);

/** Runs the rest of a request with its id in scope of every log line. */
export const inRequestScope = <T>(requestId: string, run: () => T): T => requestScope.run(requestId, run);
