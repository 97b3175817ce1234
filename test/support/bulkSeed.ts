// Writes many items into a test server's event store through the command path (validate, decide, append), a batch
// of items per transaction (the staged store's appendMany): three events an item, created, started and failed.
import { loadVoiceCatalogue } from '../../src/composition.ts';
import { configSchema } from '../../src/config.ts';
import { contentDecider } from '../../src/content/decider.ts';
import { contentStream } from '../../src/content/events.ts';
import { createContentHandlers } from '../../src/content/handlers.ts';
import { createStagedEventStore } from '../../src/infrastructure/eventStore/staged.ts';
import { handleCommand } from '../../src/shared/decider.ts';
import { withEventStore } from './eventStore.ts';

const BATCH = 500;

/** `items` items in project 1, `prefix` in their titles; resolves with the log's last position. */
export async function bulkSeed(env: Record<string, string>, items: number, prefix: string): Promise<number> {
  const voices = await loadVoiceCatalogue(configSchema.parse(env), () => {});
  return withEventStore(env, async (events) => {
    const staged = createStagedEventStore(events);
    const handlers = createContentHandlers(staged, voices);
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let from = 0; from < items; from += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, items - from) }, (_, i) => from + i);
      await Promise.all(
        batch.map(async (n) => {
          const at = (minutes: number) => new Date(base + (n * 3 + minutes) * 60_000).toISOString();
          const body = { title: `${prefix} ${n}`, body: `<p>Item ${n} of the ${prefix} batch.</p>`, tags: [`t${n % 7}`] };
          const { contentId } = await handlers.create(1, body, new Date(at(0)));
          await handleCommand(staged, contentStream(contentId), contentDecider, { kind: 'StartProcessing', generation: 1, now: at(1) });
          await handleCommand(staged, contentStream(contentId), contentDecider, { kind: 'FailProcessing', generation: 1, reason: 'seeded', now: at(2) });
        }),
      );
      await staged.commit();
    }
    return events.headPosition();
  });
}
