// Brings each sound to the podcast loudness standard (−16 LUFS, true peak ≤ −1 dBTP) before it is encoded.
import { MediaError } from './errors.ts';
import { runTool, tail } from './tool.ts';
//
// Loudness is measured as ITU-R BS.1770-4 / EBU R128 define it (K-weighting, 400 ms blocks every 100 ms,
// absolute gate −70 LUFS, relative gate −10 LU), so ffmpeg's `ebur128` filter reads the same figure.

/** The podcast standard (Apple, Spotify, AES TD1004): integrated loudness of the whole narration. */
const TARGET_LUFS = -16;
/**
 * Where the limiter holds true peaks (samples and the signal between them), as the listener gets them; the
 * standard allows −1 dBTP. The 1 dB margin covers the mp3 encoder's overshoot and the interpolation's error.
 */
const CEILING_DBFS = -2;
/** Close enough to the target for one sound: the standard allows ±1 LU for the whole narration. */
const TOLERANCE_LU = 0.3;
/** How many times at most a sound is limited and measured again. */
const ATTEMPTS = 3;
const LOOKAHEAD_S = 0.005;
const RELEASE_S = 0.05;
/** The limiter decides its gain per block of this many samples (0.36 ms at 22,050 Hz) and ramps it in between. */
const BLOCK = 8;

const dbToGain = (db: number) => 10 ** (db / 20);
/** Sounds are 16-bit PCM; full scale is 32768. */
const FULL_SCALE = 32768;

// The signal between two samples, at quarter steps, interpolated by a Hann-windowed sinc over 12 samples
// (BS.1770's true-peak meter oversamples 4× the same way).
const TAPS_BEFORE = 5;
const INTERPOLATORS = [0.25, 0.5, 0.75].map((fraction) =>
  Float64Array.from({ length: 12 }, (_, j) => {
    const t = j - TAPS_BEFORE - fraction;
    return (Math.sin(Math.PI * t) / (Math.PI * t)) * 0.5 * (1 + Math.cos((Math.PI * t) / 6));
  }),
);

/** Brings one sound (16-bit PCM) to the target, as new 16-bit PCM; made once per narration by `createLeveller`. */
export type Leveller = ((samples: Int16Array, sampleRate: number) => Int16Array) & {
  /** The extra gain the last sound needed past the plain one: where the next sound of the narration starts. */
  extraDb(): number;
};

/**
 * Each sound of a narration comes out at the target loudness, its peaks under the ceiling: a gain, then a
 * look-ahead limiter that never delays the sound (it sees the whole sound), so every sample stays where it was
 * and word times hold. Silence (nothing above the absolute gate) is left as it is.
 *
 * Limiting takes some loudness away, so the gain is corrected from a new measurement of the limited sound.
 * That measurement is taken while limiting, from the K-weighted signal measured first times the limiter's
 * gain (exact for a constant gain; the limiter's gain changes slowly against the weighting filters), so a
 * correction costs no second filtering. The sounds of one narration are alike (the same voices), so each
 * starts from the extra gain the previous one needed and usually lands within the tolerance at once.
 */
export function createLeveller(encoderGainDb: number, startExtraDb = 0): Leveller {
  // What the encoder takes away is given here beforehand, so that the listener gets the target.
  const targetLufs = TARGET_LUFS - encoderGainDb;
  const ceilingDb = CEILING_DBFS - encoderGainDb;
  let extraDb = startExtraDb;
  // Working memory, kept from sound to sound: allocating it anew for every sound makes the garbage collector
  // sweep the whole service's heap far more often.
  let scratch = { weighted: new Float32Array(0), between: new Float32Array(0), blockPeaks: new Float32Array(0), blockGains: new Float64Array(0) };
  const level = (samples: Int16Array, sampleRate: number): Int16Array => {
    const n = samples.length;
    const blocks = Math.ceil(n / BLOCK);
    if (scratch.weighted.length < n) {
      scratch = { weighted: new Float32Array(n), between: new Float32Array(n), blockPeaks: new Float32Array(blocks), blockGains: new Float64Array(blocks) };
    }
    const step = stepOf(sampleRate);
    const weighted = kWeightedSquares(samples, sampleRate, scratch.weighted.subarray(0, n));
    const measured = gatedLoudness(stepSums(weighted, step), step, n);
    const out = new Int16Array(n);
    if (!Number.isFinite(measured)) return toPcm(samples, 1, out);
    const plainDb = targetLufs - measured;
    const blockPeaks = samplePeaksPerBlock(samples, scratch.blockPeaks.subarray(0, blocks));
    const loudest = blockPeaks.reduce((a, b) => Math.max(a, b), 0);
    // Up to the gain that brings the loudest sample to the ceiling, loudness rises dB for dB; a margin of
    // 3 dB leaves room for the peaks between samples, which only the limiter looks for.
    const unlimitedDb = ceilingDb - 20 * Math.log10(loudest / FULL_SCALE);
    let last = { gainDb: unlimitedDb, loudness: measured + unlimitedDb };
    if (plainDb <= unlimitedDb - 3) return toPcm(samples, dbToGain(plainDb), out);
    const peaks = truePeaks(samples, blockPeaks, scratch.between.subarray(0, n));
    const blockGains = scratch.blockGains.subarray(0, blocks);
    let gainDb = plainDb + Math.max(0, extraDb);
    for (let attempt = 1; ; attempt++) {
      const energy = limit({ samples, weighted, peaks }, dbToGain(gainDb), dbToGain(ceilingDb), sampleRate, blockGains, out);
      extraDb = gainDb - plainDb;
      const loudness = gatedLoudness(energy, step, n);
      if (Math.abs(targetLufs - loudness) <= TOLERANCE_LU || attempt === ATTEMPTS) return out;
      // Past the ceiling loudness rises less than the gain: the next gain follows the slope of the last two.
      const slope = Math.abs(gainDb - last.gainDb) > 0.01 ? (loudness - last.loudness) / (gainDb - last.gainDb) : 1;
      last = { gainDb, loudness };
      gainDb += (targetLufs - loudness) / Math.min(1, Math.max(0.2, slope));
    }
  };
  return Object.assign(level, { extraDb: () => extraDb });
}

/** Integrated loudness (LUFS) and true peak (dBTP) of a file, by ffmpeg's EBU R128 meter in its own process. */
export interface FileLevel {
  integrated: number;
  truePeak: number;
}

export async function measureFile(wavPath: string): Promise<FileLevel> {
  const args = ['-nostdin', '-hide_banner', '-nostats', '-f', 'wav', '-protocol_whitelist', 'file', '-i', `file:${wavPath}`, '-af', 'ebur128=peak=true', '-f', 'null', '-'];
  const run = await runTool('ffmpeg', args);
  const summary = run.stderr.slice(run.stderr.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1];
  const peak = /True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1];
  if (run.code !== 0 || integrated === undefined || peak === undefined) throw new MediaError('tool-failed', `ffmpeg cannot measure ${wavPath}: ${run.startError?.message ?? tail(run.stderr)}`);
  const level = (text: string) => (text === '-inf' ? -Infinity : Number.parseFloat(text));
  return { integrated: level(integrated) <= -70 ? -Infinity : level(integrated), truePeak: level(peak) };
}

/**
 * The ffmpeg filter that does for a long sound what the leveller does for a short one: the gain to the target and,
 * where that gain would take true peaks past the ceiling, a look-ahead limiter whose delay is compensated (so the
 * sound keeps its place to the sample); its limit is 1 dB lower, as it holds sample peaks, not the peaks between them.
 * Silence is left as it is.
 */
export function levelFilter(measured: FileLevel, encoderGainDb: number): string {
  if (!Number.isFinite(measured.integrated)) return 'anull';
  const gainDb = TARGET_LUFS - encoderGainDb - measured.integrated;
  const ceilingDb = CEILING_DBFS - encoderGainDb;
  const volume = `volume=${gainDb.toFixed(2)}dB`;
  if (measured.truePeak + gainDb <= ceilingDb) return volume;
  return `${volume},alimiter=limit=${dbToGain(ceilingDb - 1).toFixed(4)}:attack=${LOOKAHEAD_S * 1000}:release=${RELEASE_S * 1000}:level=false:latency=true`;
}

/** A gain alone stays 3 dB under the ceiling, far from full scale: 16 bits hold the result. */
function toPcm(samples: Int16Array, gain: number, out: Int16Array): Int16Array {
  for (let i = 0; i < samples.length; i++) out[i] = Math.round(samples[i]! * gain);
  return out;
}

/** Gated integrated loudness of 16-bit PCM in LUFS (mono); −Infinity for silence. A sound shorter than a block is one block. */
export function integratedLoudness(samples: Int16Array, sampleRate: number): number {
  const step = stepOf(sampleRate);
  return gatedLoudness(stepSums(kWeightedSquares(samples, sampleRate, new Float32Array(samples.length)), step), step, samples.length);
}

/** Blocks are 400 ms long and start every 100 ms: four steps. */
const stepOf = (sampleRate: number) => Math.round(sampleRate / 10);

/** The loudness of a sound from the K-weighted energy of each of its steps (a last, shorter step included). */
function gatedLoudness(energy: Float64Array, step: number, length: number): number {
  const whole = Math.floor(length / step);
  const blocks: number[] = [];
  if (whole < 4) {
    if (length > 0) blocks.push(energy.reduce((sum, value) => sum + value, 0) / length);
  } else {
    for (let first = 0; first + 4 <= whole; first++) {
      blocks.push((energy[first]! + energy[first + 1]! + energy[first + 2]! + energy[first + 3]!) / (4 * step));
    }
  }
  const audible = blocks.filter((power) => lufs(power) > -70);
  if (audible.length === 0) return -Infinity;
  const relativeGate = lufs(mean(audible)) - 10;
  return lufs(mean(audible.filter((power) => lufs(power) > relativeGate)));
}

const lufs = (meanSquare: number) => -0.691 + 10 * Math.log10(meanSquare);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function stepSums(values: Float32Array, step: number): Float64Array {
  const sums = new Float64Array(Math.ceil(values.length / step));
  for (let at = 0, i = 0; at < sums.length; at++) {
    let sum = 0;
    for (const end = Math.min(values.length, i + step); i < end; i++) sum += values[i]!;
    sums[at] = sum;
  }
  return sums;
}

/**
 * Writes into `squares` the squares of the K-weighted signal: a high-shelf (the head) then a high-pass (RLB),
 * with coefficients derived for any rate as libebur128 derives them.
 */
function kWeightedSquares(samples: Int16Array, sampleRate: number, squares: Float32Array): Float32Array {
  let K = Math.tan((Math.PI * 1681.974450955533) / sampleRate);
  let Q = 0.7071752369554196;
  const Vh = 10 ** (3.999843853973347 / 20);
  const Vb = Vh ** 0.4996667741545416;
  let a0 = 1 + K / Q + K * K;
  const [b0, b1, b2] = [(Vh + (Vb * K) / Q + K * K) / a0, (2 * (K * K - Vh)) / a0, (Vh - (Vb * K) / Q + K * K) / a0];
  const [a1, a2] = [(2 * (K * K - 1)) / a0, (1 - K / Q + K * K) / a0];
  K = Math.tan((Math.PI * 38.13547087602444) / sampleRate);
  Q = 0.5003270373238773;
  a0 = 1 + K / Q + K * K;
  const [c1, c2] = [(2 * (K * K - 1)) / a0, (1 - K / Q + K * K) / a0];
  const toUnit = 1 / FULL_SCALE;
  // Direct form II for both stages; the high-pass's numerator is 1, −2, 1.
  let s1 = 0, s2 = 0, t1 = 0, t2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const w = samples[i]! * toUnit - a1 * s1 - a2 * s2;
    const shelved = b0 * w + b1 * s1 + b2 * s2;
    s2 = s1;
    s1 = w;
    const v = shelved - c1 * t1 - c2 * t2;
    const passed = v - 2 * t1 + t2;
    t2 = t1;
    t1 = v;
    squares[i] = passed * passed;
  }
  return squares;
}

interface Sound {
  samples: Int16Array;
  /** The squares of its K-weighted signal. */
  weighted: Float32Array;
  peaks: TruePeaks;
}

/**
 * Writes `samples × gain` into `out` as 16-bit PCM, its true peaks held under `ceiling`, and returns the K-weighted energy
 * of each step of `out`. The gain each block needs is held for a look-ahead window, released exponentially,
 * and averaged over the window ahead of each block, so it falls smoothly before a peak (no click) and every
 * block still gets at least the reduction it needs. Within a block the gain ramps from where the previous block
 * ended to the smaller of this block's and the next one's, so it never jumps and never exceeds the block's own.
 */
function limit(
  { samples, weighted, peaks }: Sound,
  gain: number,
  ceiling: number,
  sampleRate: number,
  blockGains: Float64Array,
  out: Int16Array,
): Float64Array {
  const n = samples.length;
  const blocks = blockGains.length;
  const threshold = (ceiling * FULL_SCALE) / gain;
  const window = Math.max(1, Math.round((sampleRate * LOOKAHEAD_S) / BLOCK));
  const release = 1 - Math.exp(-BLOCK / (sampleRate * RELEASE_S));
  // held: the smallest gain needed in (k − window, k], released, for the last `window` blocks k (a ring).
  // Its minimum comes from a queue of (block, gain needed) with rising gains; at most `window` are in it.
  const held = new Float64Array(window).fill(1);
  const slots = window + 1;
  const queuedAt = new Int32Array(slots);
  const queuedGain = new Float64Array(slots);
  let head = 0; // the oldest entry (the smallest gain)
  let size = 0;
  let previous = 1;
  let sum = window; // of held: the window ahead of the block decided next
  for (let k = 0, slot = 0; k < blocks + window; k++) {
    const magnitude = k < blocks ? peaks.ofBlock(k, threshold) : 0;
    if (magnitude > threshold) {
      const needed = threshold / magnitude;
      let last = head + size - 1;
      if (last >= slots) last -= slots;
      while (size > 0 && queuedGain[last]! >= needed) {
        size--;
        if (--last < 0) last += slots;
      }
      if (++last === slots) last = 0;
      queuedAt[last] = k;
      queuedGain[last] = needed;
      size++;
    }
    if (size > 0 && queuedAt[head]! <= k - window) {
      if (++head === slots) head = 0;
      size--;
    }
    const released = previous + (1 - previous) * release;
    previous = size > 0 && queuedGain[head]! < released ? queuedGain[head]! : released;
    sum += previous - held[slot]!;
    held[slot] = previous;
    if (++slot === window) slot = 0;
    // held now covers k − window + 1 … k: the window ahead of block k − window + 1.
    if (k - window + 1 >= 0) blockGains[k - window + 1] = sum / window;
  }
  const step = stepOf(sampleRate);
  const energy = new Float64Array(Math.ceil(n / step));
  let from = gain * blockGains[0]!;
  for (let b = 0, i = 0, at = 0, left = step; b < blocks; b++) {
    const to = gain * Math.min(blockGains[b]!, blockGains[b + 1] ?? blockGains[b]!);
    const rise = (to - from) / BLOCK;
    for (let applied = from, end = Math.min(n, i + BLOCK); i < end; i++, applied += rise) {
      out[i] = Math.round(samples[i]! * applied);
      energy[at]! += weighted[i]! * applied * applied;
      if (--left === 0) {
        at++;
        left = step;
      }
    }
    from = to;
  }
  return energy;
}

/** The largest |sample| of each block and of the sample after it (a peak between them belongs to the block). */
function samplePeaksPerBlock(samples: Int16Array, peaks: Float32Array): Float32Array {
  for (let b = 0; b < peaks.length; b++) {
    let peak = 0;
    for (let i = b * BLOCK, end = Math.min(samples.length, i + BLOCK + 1); i < end; i++) peak = Math.max(peak, Math.abs(samples[i]!));
    peaks[b] = peak;
  }
  return peaks;
}

interface TruePeaks {
  /**
   * The true peak of block b, where it may reach `threshold`. Between two samples the signal rises more than
   * 3 dB above both only for content above a quarter of the sample rate (above 5.5 kHz at 22,050 Hz: little of
   * speech, and cut by the mp3 encoder), so it is interpolated only where a sample is within 3 dB of it.
   */
  ofBlock(b: number, threshold: number): number;
}

/** Peaks between samples are interpolated once, where the limiter first asks for them, and kept in `cache`. */
function truePeaks(samples: Int16Array, blockPeaks: Float32Array, cache: Float32Array): TruePeaks {
  const n = samples.length;
  cache.fill(-1);
  const between = (k: number) => {
    if (cache[k]! >= 0) return cache[k]!;
    let peak = 0;
    for (const taps of INTERPOLATORS) {
      let value = 0;
      for (let j = 0, i = k - TAPS_BEFORE; j < taps.length; j++, i++) if (i >= 0 && i < n) value += samples[i]! * taps[j]!;
      peak = Math.max(peak, Math.abs(value));
    }
    cache[k] = peak;
    return peak;
  };
  return {
    ofBlock(b, threshold) {
      const near = threshold * Math.SQRT1_2;
      if (blockPeaks[b]! < near) return blockPeaks[b]!;
      let peak = 0;
      for (let k = b * BLOCK, end = Math.min(n, k + BLOCK); k < end; k++) {
        const here = Math.abs(samples[k]!);
        const next = k + 1 < n ? Math.abs(samples[k + 1]!) : 0;
        peak = Math.max(peak, here, next, here >= near || next >= near ? between(k) : 0);
      }
      return peak;
    },
  };
}
