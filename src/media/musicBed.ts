// Background music under a narration: a track looped to the narration's length, ducked under speech, faded in and out.
//
// The assembler knows exactly where speech is (it writes each sound and each pause itself), so ducking is gain
// automation on those known intervals rather than a compressor listening for speech: the music is down before the
// first syllable of every sentence and comes back up only after its last, with nothing to tune for levels.
import { readFile } from 'node:fs/promises';
import { integratedLoudness } from './loudness.ts';
import { MediaError } from './errors.ts';
import { isPcm16Mono, parseWav } from './wav.ts';

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

/** A track made ready to lie under a narration: its samples at the narration's rate, and its two levels as gains. */
export interface MusicBed {
  samples: Int16Array;
  bedGain: number;
  duckGain: number;
}

/**
 * A track's decoded audio (16-bit mono WAV at the narration's rate) at `volume` percent (0–100) of the level a bed
 * has under this service's narrations; null when there is nothing to hear (volume 0, or a silent track).
 */
export async function loadMusicBed(wavPath: string, sampleRate: number, volume: number): Promise<MusicBed | null> {
  const wav = parseWav(await readFile(wavPath), wavPath);
  if (!isPcm16Mono(wav) || wav.sampleRate !== sampleRate) throw new MediaError('invalid-input', `${wavPath} is not 16-bit mono at ${sampleRate} Hz`);
  const samples = new Int16Array(wav.data.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = wav.data.readInt16LE(i * 2);
  return musicBedOf(samples, sampleRate, volume);
}

export function musicBedOf(samples: Int16Array, sampleRate: number, volume: number): MusicBed | null {
  const loudness = integratedLoudness(samples, sampleRate);
  const peak = samples.reduce((loudest, sample) => Math.max(loudest, Math.abs(sample)), 0) / FULL_SCALE;
  if (volume <= 0 || !Number.isFinite(loudness) || peak === 0) return null;
  const peakDb = 20 * Math.log10(peak);
  const bedDb = Math.min(BED_LUFS - loudness + 20 * Math.log10(volume / 100), BED_PEAK_DBFS - peakDb);
  const duckDb = Math.min(bedDb - DUCK_DB, DUCKED_PEAK_DBFS - peakDb);
  return { samples, bedGain: dbToGain(bedDb), duckGain: dbToGain(duckDb) };
}

/** Mixes a bed into a timeline, in the timeline's order, sample for sample: each call continues where the last ended. */
export interface MusicMixer {
  underSpeech(pcm: Int16Array): void;
  /** A pause between sentences: the music rises, and is down again when the next sentence starts. */
  betweenSentences(pcm: Int16Array): void;
  /** The end of the timeline: the music rises and fades out to nothing by the last sample. */
  atTheEnd(pcm: Int16Array): void;
}

/** `encoderGainDb`: what the encoder will take away (src/media/assemble.ts), given back here as it is to the speech. */
export function createMusicMixer(bed: MusicBed, sampleRate: number, encoderGainDb: number): MusicMixer {
  const { samples: music } = bed;
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
  const mix = (pcm: Int16Array, targetAt: (i: number) => number, fadeAt: (i: number) => number = () => 1) => {
    for (let i = 0; i < pcm.length; i++, position++) {
      const target = targetAt(i);
      gain = gain < target ? Math.min(target, gain + upStep) : Math.max(target, gain - downStep);
      const fade = Math.min(1, position / fadeIn) * fadeAt(i);
      const mixed = pcm[i]! + music[position % music.length]! * gain * fade;
      pcm[i] = Math.max(-FULL_SCALE, Math.min(FULL_SCALE - 1, Math.round(mixed)));
    }
  };

  return {
    underSpeech: (pcm) => mix(pcm, () => duckGain),
    betweenSentences: (pcm) => mix(pcm, (i) => (i < pcm.length - attack ? bedGain : duckGain)),
    atTheEnd: (pcm) => mix(pcm, () => bedGain, (i) => (pcm.length - i) / pcm.length),
  };
}
