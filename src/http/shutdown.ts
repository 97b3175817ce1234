// Graceful shutdown on SIGTERM or SIGINT: stop accepting, let requests in flight finish (bounded), then close
// what the process holds; a second signal ends the process at once.
import type http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Requests in flight get this long to finish; orchestrators commonly allow 30 s before they kill. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Connections without a request in progress are closed from this long after the signal (a request already sent
 * on an accepted connection has been read by then), and every IDLE_SWEEP_MS after.
 */
const SETTLE_MS = 1_000;
const IDLE_SWEEP_MS = 250;

/** Resolves with the work's result, or with undefined once `ms` have passed. */
export const within = <T>(work: Promise<T>, ms: number): Promise<T | undefined> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
};

export interface GracefulShutdown {
  /** True once shutdown has begun, for `/ready`. */
  draining(): boolean;
  /** Installs the signal handlers; `closeRest` closes workflows, projections (a last checkpoint) and stores. */
  install(server: http.Server, closeRest: () => Promise<void>): void;
}

export function gracefulShutdown(log: (message: string) => void): GracefulShutdown {
  let draining = false;
  return {
    draining: () => draining,
    install(server, closeRest) {
      // Each answer given while draining closes its connection, so keep-alive clients move to another instance:
      // those begun before the signal as well as those arriving on open connections after it.
      const inFlight = new Set<http.ServerResponse>();
      const closeAfter = (response: http.ServerResponse) => {
        if (!response.headersSent) response.setHeader('Connection', 'close');
      };
      server.on('request', (_request: http.IncomingMessage, response: http.ServerResponse) => {
        if (draining) return closeAfter(response);
        inFlight.add(response);
        response.once('close', () => inFlight.delete(response));
      });
      const shutDown = async (signal: NodeJS.Signals) => {
        if (draining) {
          log(`${signal} again: exiting now`);
          process.exit(1);
        }
        draining = true;
        inFlight.forEach(closeAfter);
        log(`${signal}: shutting down; requests in flight have ${SHUTDOWN_GRACE_MS} ms to finish`);
        // http.Server#close would at once drop connections that were accepted but whose request has not been read
        // yet; closing only the listening socket lets those requests in, and idle connections go a moment later.
        let open = true;
        net.Server.prototype.close.call(server, () => (open = false));
        const deadline = Date.now() + SHUTDOWN_GRACE_MS;
        await sleep(SETTLE_MS);
        while (open && Date.now() < deadline) {
          server.closeIdleConnections();
          await sleep(IDLE_SWEEP_MS);
        }
        if (open) {
          log('requests still in flight after the grace period: closing their connections');
          server.closeAllConnections();
        }
        try {
          await closeRest();
          log('shut down');
          process.exit(0);
        } catch (error) {
          log(`shutdown did not finish cleanly: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        }
      };
      process.on('SIGTERM', (signal) => void shutDown(signal));
      process.on('SIGINT', (signal) => void shutDown(signal));
    },
  };
}
