// Finds the pauses of speech in 16-bit mono PCM: where the engines without exact word marks (Pico) or with coarse
// ones (RHVoice) place the starts of the words that follow a pause.

export interface Pause {
  start: number; // ms
  end: number; // ms
}

const FRAME_MS = 10;
/** A frame quieter than this (RMS, dBFS) is silent: breath-free synthetic speech falls far below it between phrases. */
const QUIET_DBFS = -45;

/** The runs of silent 10 ms frames at least `minMs` long, in order (the audio's start and end included). */
export function pausesOf(pcm: Buffer, sampleRate: number, minMs: number): Pause[] {
  const frame = Math.round((sampleRate * FRAME_MS) / 1000);
  const quiet = 32768 ** 2 * 10 ** (QUIET_DBFS / 10);
  const frames = Math.floor(pcm.length / 2 / frame);
  const pauses: Pause[] = [];
  let from: number | undefined;
  for (let i = 0; i <= frames; i++) {
    let energy = 0;
    if (i < frames) {
      for (let s = i * frame; s < (i + 1) * frame; s++) energy += pcm.readInt16LE(s * 2) ** 2;
    }
    const silent = i < frames && energy / frame < quiet;
    if (silent && from === undefined) from = i;
    if (!silent && from !== undefined) {
      if ((i - from) * FRAME_MS >= minMs) pauses.push({ start: from * FRAME_MS, end: i * FRAME_MS });
      from = undefined;
    }
  }
  return pauses;
}
