// The read store's checkpoint thread: when it cannot run, the writer checkpoints in its own commits again.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/infrastructure/readStore/sqliteCheckpointer.ts';

const run = promisify(execFile);

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

describe('closing a SQLite read store', () => {
  it('lets a process whose last work is the close carry on after it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'checkpointer-'));
    const script = path.join(dir, 'close.mts');
    const store = path.resolve('src/infrastructure/readStore/sqlite.ts');
    writeFileSync(
      script,
      [
        `import { createSqliteReadStore } from ${JSON.stringify(store)};`,
        `const read = createSqliteReadStore(${JSON.stringify(path.join(dir, 'read.sqlite'))});`,
        `await read.collection('notes').put({ _id: 'a', text: 'kept' });`,
        `await read.close();`,
        `console.log('after the close');`,
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script]);
    expect(stdout).toBe('after the close\n');
  });
});
