// Starts a generation workflow for every generation the log asks for, and resumes unfinished ones at start.
import type { RecordedEvent } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { WorkflowRunner } from '../infrastructure/workflows/port.ts';
import type { ContentEvent } from '../content/events.ts';
import { CONTENT_ITEMS, type ContentItemView } from '../content/readModel.ts';
import type { GenerationLane } from './lifecycle.ts';

export interface GenerationReactor {
  /** Called for every event the projections applied; ignored until `resume` has run. */
  onEvent(event: RecordedEvent): void;
  /** Starts every generation the read model shows as unfinished, then follows new events. */
  resume(read: ReadStore): Promise<void>;
}

const UNFINISHED = ['queued', 'processing'] as const;
const RESUME_PAGE = 500;

/**
 * An item's first generation is interactive (it was just created: a publisher or a reader may be waiting to
 * listen); a regeneration, asked for by `regenerate` or by an edit, is bulk work, which a backlog of may pile up.
 */
export const laneOf = (generation: number): GenerationLane => (generation === 1 ? 'interactive' : 'bulk');

export function createGenerationReactor(runner: WorkflowRunner, log: (message: string) => void): GenerationReactor {
  let live = false;
  const start = (contentId: string, generation: number) =>
    runner.startGeneration({ contentId, generation, lane: laneOf(generation) }).catch((error: unknown) => log(`could not start generation ${generation} of ${contentId}: ${String(error)}`));

  return {
    onEvent(recorded) {
      if (!live || !recorded.stream.startsWith('content-')) return;
      const event = recorded as unknown as ContentEvent;
      const contentId = recorded.stream.slice('content-'.length);
      if (event.type === 'ContentCreated') void start(contentId, 1);
      if (event.type === 'ContentRegenerationRequested') void start(contentId, event.data.generation);
    },
    async resume(read) {
      live = true;
      const items = read.collection<ContentItemView>(CONTENT_ITEMS);
      // Page by page along the status index: a catalogue of millions may hold many unfinished items, never all in memory.
      for (const status of UNFINISHED) {
        for (let after = -1; ; ) {
          const page = await items.find({ status, legacyId: { $gt: after } }, { sort: { legacyId: 1 }, limit: RESUME_PAGE });
          for (const item of page) await start(item._id, item.generation);
          if (page.length < RESUME_PAGE) break;
          after = page.at(-1)!.legacyId;
        }
      }
    },
  };
}
