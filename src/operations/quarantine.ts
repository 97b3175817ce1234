// The operator's view of the projection quarantine: list what is in it, ask the running service to retry it.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { handleCommand } from '../shared/decider.ts';
import { QUARANTINE_STREAM, entryKey, foldQuarantine, openEntries, quarantineDecider, type QuarantineEntry, type QuarantineState } from '../../projections/quarantine.ts';

/** How long `retry` waits for a running service to report the outcome. */
const RETRY_WAIT_MS = 20_000;
const POLL_MS = 200;

const stateOf = async (events: EventStore): Promise<QuarantineState> => (await events.readStream(QUARANTINE_STREAM)).reduce(foldQuarantine, {});

const describe = (entry: QuarantineEntry) =>
  `position ${entry.position}  ${entry.projection}  ${entry.eventType}  ${entry.stream}  event ${entry.eventId}\n` +
  `  since ${entry.quarantined}, ${entry.failures} failure${entry.failures === 1 ? '' : 's'}, last: ${entry.error}`;

export async function listQuarantine(events: EventStore): Promise<string> {
  const open = openEntries(await stateOf(events));
  if (open.length === 0) return 'no event in quarantine';
  return [`${open.length} event${open.length === 1 ? '' : 's'} in quarantine:`, ...open.map(describe)].join('\n');
}

/**
 * Records a retry request in the log; the service applies the events again when its runner reaches the request
 * (at once when it runs, else at its next start). Resolves with an exit code and what to print.
 */
export async function retryQuarantine(events: EventStore, positions: number[] | null): Promise<{ code: number; report: string }> {
  const targets = openEntries(await stateOf(events)).filter((entry) => positions === null || positions.includes(entry.position));
  if (targets.length === 0) return { code: 2, report: positions ? `no event in quarantine at position ${positions.join(', ')}` : 'no event in quarantine' };
  const { position: requested } = await handleCommand(events, QUARANTINE_STREAM, quarantineDecider, { kind: 'RequestRetry', positions, now: new Date().toISOString() });

  const deadline = Date.now() + RETRY_WAIT_MS;
  let state = await stateOf(events);
  const settled = (entry: QuarantineEntry) => (state[entryKey(entry.projection, entry.position)]?.at ?? 0) >= requested;
  while (!targets.every(settled) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    state = await stateOf(events);
  }
  const lines = targets.map((target) => {
    const entry = state[entryKey(target.projection, target.position)]!;
    const head = `position ${entry.position}  ${entry.projection}: `;
    if (!settled(entry)) return `${head}not retried yet: no running service has reached the request; it is retried when the service starts`;
    return entry.status === 'released' ? `${head}applied; out of quarantine` : `${head}failed again: ${entry.error}`;
  });
  const allReleased = targets.every((target) => settled(target) && state[entryKey(target.projection, target.position)]!.status === 'released');
  return { code: allReleased ? 0 : 1, report: [`retry requested at position ${requested}`, ...lines].join('\n') };
}
