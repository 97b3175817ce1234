// The read store's checkpoint thread: when it cannot run, the writer checkpoints in its own commits again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/infrastructure/readStore/sqliteCheckpointer.ts';

describe('SQLite checkpoint thread', () => {
  it('hands checkpoints back to the writer when it cannot open the file, and lets the writer go on', async () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'checkpointer-')), 'no-such-dir', 'read.sqlite');
    let fellBack = 0;
    const checkpointer = startCheckpointer(missing, () => fellBack++);
    await expect.poll(() => fellBack, { timeout: 5_000 }).toBe(1);
    checkpointer.committed();
    await checkpointer.room();
    await checkpointer.close();
    expect(fellBack).toBe(1);
  });
});
