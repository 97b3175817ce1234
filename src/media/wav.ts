// Reads WAV files (any chunk layout) and measures trailing silence in 16-bit PCM.
import { open } from 'node:fs/promises';
import { MediaError } from './errors.ts';

export interface WavAudio {
  formatTag: number; // 1 = integer PCM
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  data: Buffer;
}

/** Below this level (−40 dBFS) a 16-bit sample counts as silence; the tests' silencedetect uses the same. */
export const SILENCE_DBFS = -40;
const SILENCE_AMPLITUDE = Math.round(32768 * 10 ** (SILENCE_DBFS / 20));

export function parseWav(file: Buffer, source: string): WavAudio {
  if (file.length < 12 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') {
    throw new MediaError('undecodable', `${source} is not a WAV file`);
  }
  let format: Omit<WavAudio, 'data'> | undefined;
  for (let at = 12; at + 8 <= file.length; ) {
    const id = file.toString('ascii', at, at + 4);
    // Streamed WAVs (ffmpeg writing to a pipe) carry a placeholder size: trust the file's end instead.
    const size = Math.min(file.readUInt32LE(at + 4), file.length - at - 8);
    const body = at + 8;
    if (id === 'fmt ' && size >= 16) {
      format = {
        formatTag: file.readUInt16LE(body),
        channels: file.readUInt16LE(body + 2),
        sampleRate: file.readUInt32LE(body + 4),
        bitsPerSample: file.readUInt16LE(body + 14),
      };
    } else if (id === 'data' && format) {
      return { ...format, data: file.subarray(body, body + size) };
    }
    at = body + size + (size % 2); // chunks are padded to an even length
  }
  throw new MediaError('undecodable', `${source} has no fmt and data chunks`);
}

/** True for the one format the media layer works in: 16-bit integer PCM, mono. */
export function isPcm16Mono(wav: WavAudio): boolean {
  return wav.formatTag === 1 && wav.channels === 1 && wav.bitsPerSample === 16;
}

/** How many samples at the end of 16-bit mono PCM stay below the silence level. */
export function trailingSilenceSamples(pcm: Buffer): number {
  const samples = pcm.length >> 1;
  let last = samples - 1;
  while (last >= 0 && Math.abs(pcm.readInt16LE(last * 2)) < SILENCE_AMPLITUDE) last--;
  return samples - 1 - last;
}

/**
 * The number of 16-bit mono samples of a WAV file ffmpeg wrote, from its chunk headers alone: the audio is not read
 * into memory. The data chunk runs to the file's end when its size is a placeholder.
 */
export async function wavSampleCount(path: string, source: string): Promise<number> {
  return (await wavLayout(path, source)).samples;
}

/** Where a WAV file's audio is and what it is, from its chunk headers alone (`samples` counts 16-bit mono samples). */
export interface WavLayout extends Omit<WavAudio, 'data'> {
  dataOffset: number;
  samples: number;
}

export async function wavLayout(path: string, source: string): Promise<WavLayout> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await handle.read(head, 0, head.length, 0);
    if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') throw new MediaError('undecodable', `${source} is not a WAV file`);
    let format: Omit<WavAudio, 'data'> = { formatTag: 1, channels: 1, sampleRate: 0, bitsPerSample: 16 };
    for (let at = 12; at + 8 <= head.length; ) {
      const id = head.toString('ascii', at, at + 4);
      const length = head.readUInt32LE(at + 4);
      if (id === 'fmt ' && length >= 16 && at + 24 <= head.length) {
        format = { formatTag: head.readUInt16LE(at + 8), channels: head.readUInt16LE(at + 10), sampleRate: head.readUInt32LE(at + 12), bitsPerSample: head.readUInt16LE(at + 22) };
      }
      if (id === 'data') return { ...format, dataOffset: at + 8, samples: Math.floor(Math.min(length, size - at - 8) / 2) };
      at += 8 + length + (length % 2);
    }
    throw new MediaError('undecodable', `${source} has no data chunk`);
  } finally {
    await handle.close();
  }
}
