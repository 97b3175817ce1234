// Background music under a narration: a track looped to the narration's length, ducked under speech, faded in and out.
//
// The assembler knows exactly where speech is (it writes each sound and each pause itself), so ducking is gain
// automation on those known intervals rather than a compressor listening for speech: the music is down before the
// first syllable of every sentence and comes back up only after its last, with nothing to tune for levels.
//
// The track is never held in the process: its level is measured by ffmpeg's EBU R128 meter (in its own process), and
// the mixer reads from the decoded file only the samples it mixes next, so memory stays the same whatever its length.
import { open, type FileHandle } from 'node:fs/promises';
import { endianness } from 'node:os';
import { MediaError } from './errors.ts';
import { runTool, tail } from './tool.ts';
import { wavLayout } from './wav.ts';

/**
 * Where the track sits between sentences at volume 100: as loud as the narration (−16 LUFS), so that however long the
 * pauses, music alone measures like the speech and the whole stays at −16 LUFS. Lower volumes make quieter pauses,
 * which pull the whole down by as much as they weigh in it: with pauses of a few tenths of a second, where the music
 * barely rises, little; half the time music alone at volume 50 (−6 LU) would make −17.7 LUFS.
 */
const BED_LUFS = -16;
/** Under speech the music drops this far below its level between sentences... */
const DUCK_DB = 18;
/**
 * ...and its peaks stay under these levels (sample peaks, dBFS), whatever the track's loudness: between sentences,
 * room for its peaks between samples; under speech, limited to −1.55 dBFS before the encoder, the sum stays under it.
 */
const BED_PEAK_DBFS = -4;
const DUCKED_PEAK_DBFS = -30;
/** The music is fully down this long before speech starts, and takes this long to come back after it ends. */
const ATTACK_MS = 150;
const RELEASE_MS = 400;
const FADE_IN_MS = 1_000;
/** After the last sentence the music goes on at least this long, fading out to nothing: the narration ends that much later. */
export const MUSIC_TAIL_MS = 2_000;

const FULL_SCALE = 32768;
const dbToGain = (db: number) => 10 ** (db / 20);

/** A track made ready to lie under a narration: where its samples are (at the narration's rate), and its two levels as gains. */
export interface MusicBed {
  wavPath: string;
  /** Where the 16-bit little-endian samples start in the file, and how many there are. */
  dataOffset: number;
  samples: number;
  bedGain: number;
  duckGain: number;
}

/**
 * A track's decoded audio (16-bit mono WAV at the narration's rate) at `volume` percent (0–100) of the level a bed
 * has under this service's narrations; null when there is nothing to hear (volume 0, or a silent track).
 */
export async function loadMusicBed(wavPath: string, sampleRate: number, volume: number): Promise<MusicBed | null> {
  const wav = await wavLayout(wavPath, wavPath);
  if (wav.formatTag !== 1 || wav.channels !== 1 || wav.bitsPerSample !== 16 || wav.sampleRate !== sampleRate) {
    throw new MediaError('invalid-input', `${wavPath} is not 16-bit mono at ${sampleRate} Hz`);
  }
  if (volume <= 0 || wav.samples === 0) return null;
  const { loudness, peakDb } = await measureTrack(wavPath, wav.samples / sampleRate);
  if (!Number.isFinite(loudness) || !Number.isFinite(peakDb)) return null;
  const bedDb = Math.min(BED_LUFS - loudness + 20 * Math.log10(volume / 100), BED_PEAK_DBFS - peakDb);
  const duckDb = Math.min(bedDb - DUCK_DB, DUCKED_PEAK_DBFS - peakDb);
  return { wavPath, dataOffset: wav.dataOffset, samples: wav.samples, bedGain: dbToGain(bedDb), duckGain: dbToGain(duckDb) };
}

/** A track shorter than this is measured looped to this length: the meter's 400-ms blocks need a few seconds. */
const SHORTEST_MEASURED_S = 3;

/**
 * Integrated loudness (LUFS, BS.1770 as src/media/loudness.ts measures it) and sample peak (dBFS) of the decoded track,
 * by ffmpeg's ebur128 meter in its own process; −Infinity for silence.
 */
async function measureTrack(wavPath: string, seconds: number): Promise<{ loudness: number; peakDb: number }> {
  const length = Math.max(seconds, SHORTEST_MEASURED_S).toFixed(3);
  const args = ['-nostdin', '-hide_banner', '-nostats', '-stream_loop', '-1', '-t', length, '-f', 'wav', '-protocol_whitelist', 'file', '-i', `file:${wavPath}`, '-af', 'ebur128=peak=sample', '-f', 'null', '-'];
  const run = await runTool('ffmpeg', args);
  const summary = run.stderr.slice(run.stderr.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1];
  const peak = /Sample peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1];
  if (run.code !== 0 || integrated === undefined || peak === undefined) throw new MediaError('tool-failed', `ffmpeg cannot measure ${wavPath}: ${run.startError?.message ?? tail(run.stderr)}`);
  const level = (text: string) => (text === '-inf' ? -Infinity : Number.parseFloat(text));
  // The meter's floor: no block above its absolute gate.
  const loudness = level(integrated) <= -70 ? -Infinity : level(integrated);
  return { loudness, peakDb: level(peak) };
}

/** Mixes a bed into a timeline, in the timeline's order, sample for sample: each call continues where the last ended. */
export interface MusicMixer {
  underSpeech(pcm: Int16Array): Promise<void>;
  /** A pause between sentences: the music rises, and is down again when the next sentence starts. */
  betweenSentences(pcm: Int16Array): Promise<void>;
  /** The end of the timeline: the music rises and fades out to nothing by the last sample. */
  atTheEnd(pcm: Int16Array): Promise<void>;
  /** Closes the track's file. */
  close(): Promise<void>;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** `count` samples of the track from `position` on, looped: read from the file, nothing more. */
async function musicAt(file: FileHandle, bed: MusicBed, position: number, count: number): Promise<Int16Array> {
  const music = new Int16Array(count);
  const bytes = Buffer.from(music.buffer, music.byteOffset, music.byteLength);
  for (let filled = 0; filled < count; ) {
    const at = (position + filled) % bed.samples;
    const take = Math.min(count - filled, bed.samples - at);
    const { bytesRead } = await file.read(bytes, filled * 2, take * 2, bed.dataOffset + at * 2);
    if (bytesRead < take * 2) throw new MediaError('undecodable', `${bed.wavPath} ended early`);
    filled += take;
  }
  if (!LITTLE_ENDIAN) bytes.swap16();
  return music;
}

/** `encoderGainDb`: what the encoder will take away (src/media/assemble.ts), given back here as it is to the speech. */
export async function createMusicMixer(bed: MusicBed, sampleRate: number, encoderGainDb: number): Promise<MusicMixer> {
  const file = await open(bed.wavPath, 'r');
  const bedGain = bed.bedGain * dbToGain(-encoderGainDb);
  const duckGain = bed.duckGain * dbToGain(-encoderGainDb);
  const perMs = sampleRate / 1000;
  const attack = Math.max(1, Math.round(ATTACK_MS * perMs));
  const fadeIn = Math.max(1, Math.round(FADE_IN_MS * perMs));
  // Gain moves by at most these steps per sample, so the music falls within ATTACK_MS and rises within RELEASE_MS.
  const downStep = (bedGain - duckGain) / attack;
  const upStep = (bedGain - duckGain) / Math.max(1, RELEASE_MS * perMs);
  let gain = duckGain;
  let position = 0;

  /** `targetAt(i)`: the gain sample i heads for; `fadeAt(i)`: a factor for the fade-out. */
  const mix = async (pcm: Int16Array, targetAt: (i: number) => number, fadeAt: (i: number) => number = () => 1) => {
    const music = await musicAt(file, bed, position, pcm.length);
    for (let i = 0; i < pcm.length; i++, position++) {
      const target = targetAt(i);
      gain = gain < target ? Math.min(target, gain + upStep) : Math.max(target, gain - downStep);
      const fade = Math.min(1, position / fadeIn) * fadeAt(i);
      const mixed = pcm[i]! + music[i]! * gain * fade;
      pcm[i] = Math.max(-FULL_SCALE, Math.min(FULL_SCALE - 1, Math.round(mixed)));
    }
  };

  return {
    underSpeech: (pcm) => mix(pcm, () => duckGain),
    betweenSentences: (pcm) => mix(pcm, (i) => (i < pcm.length - attack ? bedGain : duckGain)),
    atTheEnd: (pcm) => mix(pcm, () => bedGain, (i) => (pcm.length - i) / pcm.length),
    close: () => file.close(),
  };
}
