// Levelling off the event loop: short sounds are levelled (src/media/loudness.ts) on one thread of the process,
// started when first needed, so a sentence's CPU work (tens of milliseconds) never holds up requests or the lease.
import type { Worker } from 'node:worker_threads';
import { startThread } from '../infrastructure/threads.ts';
import { MediaError } from './errors.ts';
import type { LevelReply, LevelRequest } from './levelWorker.ts';

interface Waiting {
  resolve(reply: { samples: Int16Array; extraDb: number }): void;
  reject(error: Error): void;
}

let thread: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, Waiting>();

function levelThread(): Worker {
  if (thread) return thread;
  const started = startThread('levelWorker', new URL('./levelWorker.ts', import.meta.url));
  started.on('message', (reply: LevelReply) => {
    const waiter = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) started.unref();
    if ('error' in reply) waiter?.reject(new MediaError('tool-failed', `levelling failed: ${reply.error}`));
    else waiter?.resolve(reply);
  });
  const fail = (error: Error) => {
    if (thread === started) thread = null;
    for (const waiter of waiting.values()) waiter.reject(new MediaError('tool-failed', `the levelling thread stopped: ${error.message}`));
    waiting.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`exit ${code}`)));
  // An idle thread does not keep the process alive (unref'd after its listeners, which hold its port); one with sounds
  // to level does, until the last reply. It is started again after a failure.
  started.unref();
  thread = started;
  return started;
}

/** Starts the thread ahead of the first sound, so its start overlaps synthesis. */
export const warmLevelThread = () => void levelThread();

/** One narration's leveller: each sound starts from the extra gain the previous one needed, as createLeveller's do. */
export function createThreadLeveller(encoderGainDb: number): (samples: Int16Array, sampleRate: number) => Promise<Int16Array> {
  let extraDb = 0;
  return async (samples, sampleRate) => {
    // A copy of its own is sent: the sound's memory may be shared with other buffers of the process.
    const copy = samples.slice();
    const id = nextId++;
    const reply = await new Promise<{ samples: Int16Array; extraDb: number }>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      const leveller = levelThread();
      leveller.ref();
      leveller.postMessage({ id, samples: copy, sampleRate, encoderGainDb, extraDb } satisfies LevelRequest, [copy.buffer as ArrayBuffer]);
    });
    extraDb = reply.extraDb;
    return reply.samples;
  };
}
