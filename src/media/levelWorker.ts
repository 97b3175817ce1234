// The levelling thread (src/media/levelThread.ts): brings each sound it is sent to the target loudness, off the
// service's event loop.
import { parentPort } from 'node:worker_threads';
import { createLeveller } from './loudness.ts';

export interface LevelRequest {
  id: number;
  samples: Int16Array;
  sampleRate: number;
  encoderGainDb: number;
  extraDb: number;
}

export type LevelReply = { id: number; samples: Int16Array; extraDb: number } | { id: number; error: string };

parentPort!.on('message', ({ id, samples, sampleRate, encoderGainDb, extraDb }: LevelRequest) => {
  try {
    const level = createLeveller(encoderGainDb, extraDb);
    const levelled = level(samples, sampleRate);
    parentPort!.postMessage({ id, samples: levelled, extraDb: level.extraDb() } satisfies LevelReply, [levelled.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({ id, error: String(error) } satisfies LevelReply);
  }
});
