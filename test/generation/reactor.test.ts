// The generation reactor resumes every unfinished item at start, page by page along the status index.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteReadStore } from '../../src/infrastructure/readStore/sqlite.ts';
import { CONTENT_ITEMS, contentIndexes } from '../../src/content/readModel.ts';
import { createGenerationReactor } from '../../src/generation/reactor.ts';
import type { WorkflowRunner } from '../../src/infrastructure/workflows/port.ts';
import type { GenerationInput } from '../../src/generation/lifecycle.ts';

const STATUSES = ['queued', 'processing', 'processed', 'error', 'skipped'] as const;

describe('generation reactor', () => {
  it('starts each queued or processing item of every project once, past several pages, and no other', async () => {
    const read = createSqliteReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'reactor-')), 'read.sqlite'));
    const items = read.collection(CONTENT_ITEMS);
    for (const index of contentIndexes) await items.ensureIndex(index);
    // 2,400 items over three projects: 960 unfinished, so both statuses take more than one page.
    const expected = new Set<string>();
    for (let n = 0; n < 2_400; n++) {
      const status = STATUSES[n % STATUSES.length]!;
      const item = { _id: `item-${n}`, projectId: 1 + (n % 3), legacyId: 1_000 + n, status, generation: 1 + (n % 2) };
      if (status === 'queued' || status === 'processing') expected.add(`${item._id}@${item.generation}`);
      await items.put(item);
    }
    const started: string[] = [];
    const runner: WorkflowRunner = {
      startGeneration: async ({ contentId, generation }: GenerationInput) => void started.push(`${contentId}@${generation}`),
      startDelivery: async () => undefined,
      close: async () => undefined,
    };
    await createGenerationReactor(runner, () => undefined).resume(read);
    expect(started).toHaveLength(expected.size);
    expect(new Set(started)).toEqual(expected);
    const plan = await items.explain!({ status: 'queued', legacyId: { $gt: 1_500 } }, { sort: { legacyId: 1 }, limit: 500 });
    expect(plan?.indexes).toContain('status_legacy_id');
    expect(plan?.fullScan).toBe(false);
    await read.close();
  });
});
