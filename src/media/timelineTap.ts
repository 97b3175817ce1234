// Keeps a copy of a timeline as it goes to the encoder, as a WAV file, so another rendition (intro + narration +
// outro) can be made from the very samples the narration was encoded from, not from its decoded mp3.
import { createWriteStream } from 'node:fs';
import { endianness } from 'node:os';
import { finished } from 'node:stream/promises';

export interface TimelineTap {
  /** 16-bit mono samples in the machine's byte order, as the encoder gets them. */
  write(pcm: Buffer): void;
  close(): Promise<void>;
  abort(): void;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * The header carries placeholder sizes, as a WAV streamed to a pipe does; readers (src/media/wav.ts, ffmpeg) trust
 * the file's end instead, so nothing needs rewriting once the length is known.
 */
function streamedWavHeader(sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(0xffffffff, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // integer PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(0xffffffff, 40);
  return header;
}

export function openTimelineTap(wavPath: string, sampleRate: number): TimelineTap {
  const file = createWriteStream(wavPath);
  file.write(streamedWavHeader(sampleRate));
  return {
    write: (pcm) => void file.write(LITTLE_ENDIAN ? pcm : Buffer.from(pcm).swap16()),
    async close() {
      file.end();
      await finished(file);
    },
    abort: () => void file.destroy(),
  };
}
