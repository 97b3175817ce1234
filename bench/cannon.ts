// autocannon, typed for the part the benchmarks use, and one timed round of load reduced to a Round.
// @ts-expect-error autocannon publishes no types; the part used here is declared below.
import untypedAutocannon from 'autocannon';
import type { Round } from './service.ts';

export interface CannonRequest {
  method: 'GET' | 'POST';
  path?: string;
  body?: string;
  setupRequest?: (request: CannonRequest) => CannonRequest;
}
interface CannonOptions {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  headers: Record<string, string>;
  requests: CannonRequest[];
}
interface CannonResult {
  duration: number;
  requests: { total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
export type CannonRun = PromiseLike<CannonResult> & { stop(): void };
const autocannon = untypedAutocannon as (options: CannonOptions) => CannonRun;

export interface StatusRound extends Round {
  statuses: Record<string, number>;
}

/** One round of load; `onStart` receives the run so a failing benchmark can stop it. */
export async function cannonRound(
  options: { url: string; connections: number; seconds: number; headers: Record<string, string>; requests: CannonRequest[] },
  onStart: (run: CannonRun | undefined) => void = () => undefined,
): Promise<StatusRound> {
  const run = autocannon({ url: options.url, connections: options.connections, duration: options.seconds, timeout: 10, headers: options.headers, requests: options.requests });
  onStart(run);
  const result = await run;
  onStart(undefined);
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statuses,
  };
}
