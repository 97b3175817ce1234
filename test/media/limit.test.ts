import { describe, expect, it } from 'vitest';
import { createLimit } from '../../src/media/limit.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createLimit', () => {
  it('never runs more than `concurrency` tasks at once and starts them in order', async () => {
    const limit = createLimit(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        limit(async () => {
          started.push(i);
          running++;
          most = Math.max(most, running);
          await tick();
          running--;
          return i * 10;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it('frees the slot of a task that fails', async () => {
    const limit = createLimit(1);
    await expect(limit(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit(async () => 'next')).resolves.toBe('next');
  });
});
