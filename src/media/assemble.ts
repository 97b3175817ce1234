// Joins audio parts with exact pauses into one timeline at podcast loudness, encoded once into an mp3 and a growing HLS rendition.
import { once } from 'node:events';
import { mkdir, readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { MediaError } from './errors.ts';
import { levelFilter, measureFile } from './loudness.ts';
import { createThreadLeveller, warmLevelThread } from './levelThread.ts';
import { createMusicMixer, MUSIC_TAIL_MS, type MusicBed, type MusicMixer } from './musicBed.ts';
import { openTimelineTap } from './timelineTap.ts';
import { spawn } from 'node:child_process';
import { runTool, tail } from './tool.ts';
import { isPcm16Mono, parseWav, wavLayout, type WavAudio } from './wav.ts';

export interface AssemblyPart {
  wavPath: string;
  pauseAfterMs: number;
}

export interface Assembly {
  mp3Path: string;
  hlsPlaylistPath: string;
  hlsSegmentPaths: string[];
  /** How long the mp3 and the HLS rendition play: the timeline plus the encoder's priming (see below). */
  durationMs: number;
  /** Where each part starts on the timeline, exact to the sample. */
  offsetsMs: number[];
}

// libmp3lame puts 1105 samples of priming before the first input sample (576 encoder + 529
// decoder delay). The LAME tag ffmpeg writes into the mp3 lets gapless decoders such as ffmpeg skip
// them, so on the mp3's decoded timeline every offset is exact. ffprobe counts them in the duration,
// and the HLS segments cannot carry the tag, so HLS players play them too: there, everything
// sounds 1105 samples (50 ms at 22050 Hz) later. durationMs counts them, so it matches what ffprobe
// reports for both renditions up to the padding of the last frame (at most about one frame,
// under 30 ms at 22050 Hz).
const MP3_PRIMING_SAMPLES = 1105;
// Level 7 (lame -q 7) encodes twice as fast as ffmpeg's default; the encoding is most of assembly's time.
const MP3_ARGS = ['-c:a', 'libmp3lame', '-b:a', '64k', '-compression_level', '7'];
// libmp3lame plays back 0.45 dB below its input whatever the frequency, level or bitrate (a 440 Hz tone
// at −10.06 dBFS peak decodes at −10.51); levelling gives it back beforehand.
const MP3_GAIN_DB = -0.45;
// Short segments let a listener start early: the first is listed once 2 s of speech are encoded (a title, or the
// first sentence) rather than 6 s. ffmpeg's hls_init_time cannot shorten only the first: with hls_list_size=0
// (every segment stays listed) it applies to all of them.
const HLS_SEGMENT_SECONDS = 2;
// Lets the segments' MPEG-TS muxer gather up to 0.7 s of mp3 frames per PES packet, as ffmpeg's own outputs
// do (-muxdelay); a tee's outputs default to none, and one 209-byte frame per packet makes segments 64% larger.
const HLS_MAX_DELAY_US = 700_000;
// How often the growing playlist (a few hundred bytes) is read, while encoding, for its first segment; the reads
// stop once it is seen.
const PLAYLIST_POLL_MS = 50;
// Levelled parts are 16-bit samples in the machine's byte order.
const LITTLE_ENDIAN = endianness() === 'LE';
const PCM_FORMAT = LITTLE_ENDIAN ? 's16le' : 's16be';

export interface AssemblyOptions {
  /**
   * Called once, while encoding, as soon as the HLS playlist lists its first segment: from then on a player can
   * start listening. Not called when the encoder finishes before the playlist is seen with a segment.
   * finish() waits for it, and fails with it.
   */
  onListenable?: () => Promise<void>;
  /**
   * Background music mixed under the timeline (src/media/musicBed.ts), awaited when the first part comes, so that
   * fetching the track overlaps synthesis. With music the timeline goes on at least MUSIC_TAIL_MS after the last part, while it fades out.
   */
  music?: Promise<MusicBed | null>;
  /** Where to keep a WAV copy of the timeline exactly as encoded (src/media/timelineTap.ts). */
  timelineWavPath?: string;
}

/** The timeline as it is being spoken: parts go to the encoder in order, as soon as each is ready. */
export interface AssemblyWriter {
  /** Adds the next part after `pauseBeforeMs` of silence (ignored for the first part). */
  append(wavPath: string, pauseBeforeMs: number): Promise<void>;
  /** Ends the timeline with `trailingPauseMs` of silence and completes the mp3 and the HLS rendition. */
  finish(trailingPauseMs?: number): Promise<Assembly>;
  /** Stops the encoder after a failure elsewhere; what it wrote is not to be used. */
  abort(): void;
}

/**
 * Starts the encoder at once, so that encoding (most of assembly's time) overlaps synthesis.
 * The timeline is built here rather than by ffmpeg filters so that every offset is a whole sample count.
 *
 * One encoder feeds two files through ffmpeg's tee muxer: the mp3, and an HLS rendition (the same mp3 frames in
 * ~2 s MPEG-TS segments) whose EVENT playlist grows as segments are written and is closed with #EXT-X-ENDLIST at
 * the end. ffmpeg writes each segment and each version of the playlist to a temporary file and renames it, so
 * a segment file exists only once complete, and a reader never sees half a playlist. ffmpeg runs in the output
 * folder, so the names in the tee's specification need no escaping. The mp3 is byte for byte the one a single
 * mp3 output would write (same frames, same LAME tag with the priming), and HLS needs no second pass.
 *
 * Loudness is set here too, part by part (src/media/loudness.ts): each part is measured and brought to
 * −16 LUFS with its peaks limited as it joins the timeline, so the encoder can start before the last part
 * exists and reads the audio once. Loudness of the whole cannot be known before the whole is spoken: measuring
 * it (loudnorm's first pass, or ebur128) and then encoding would put the whole encode after synthesis, and
 * loudnorm's one-pass dynamic mode rides the gain continuously (and works at 192 kHz). Parts at −16 LUFS,
 * separated by silences the measurement gates out, make a whole at −16 LUFS, and a pre-recorded part comes out
 * as loud as the voices around it.
 */
export async function startAssembly(outDir: string, name: string, sampleRate: number, options: AssemblyOptions = {}): Promise<AssemblyWriter> {
  if (!/^[\w.-]+$/.test(name)) throw new MediaError('invalid-input', `not a file name: ${name}`);
  await mkdir(outDir, { recursive: true });
  const input = new PassThrough();
  const mp3Path = join(outDir, `${name}.mp3`);
  const hlsPlaylistPath = join(outDir, `${name}.m3u8`);
  const hls = `f=hls:max_delay=${HLS_MAX_DELAY_US}:hls_time=${HLS_SEGMENT_SECONDS}:hls_list_size=0:hls_playlist_type=event:hls_flags=temp_file:hls_segment_filename=${name}-%03d.ts`;
  const encoding = ffmpeg(
    ['-f', PCM_FORMAT, '-ar', String(sampleRate), '-ac', '1', '-i', 'pipe:0', '-map', '0:a', ...MP3_ARGS, '-f', 'tee', `[f=mp3]${name}.mp3|[${hls}]${name}.m3u8`],
    input,
    outDir,
  );
  // Awaited by finish(); until then a failure must not surface as an unhandled rejection.
  encoding.catch(() => undefined);
  const watcher = watchPlaylist(hlsPlaylistPath, options.onListenable);
  warmLevelThread();
  const level = createThreadLeveller(MP3_GAIN_DB);
  const tap = options.timelineWavPath ? openTimelineTap(options.timelineWavPath, sampleRate) : null;
  const offsetsMs: number[] = [];
  let samples = 0;
  let music: MusicMixer | null = null;
  /** Silence, with the music mixed in as the pause's place calls for. */
  const silence = async (ms: number, mixMusic?: (mixer: MusicMixer, pcm: Int16Array) => Promise<void>) => {
    const count = Math.round((ms * sampleRate) / 1000);
    samples += count;
    const pause = Buffer.alloc(count * 2);
    if (music) await mixMusic?.(music, new Int16Array(pause.buffer, pause.byteOffset, count));
    return pause;
  };
  // The encoder is waited for when it falls behind, so what is not encoded yet never piles up in the process.
  const encoderGone = encoding.then(
    () => undefined,
    () => undefined,
  );
  const send = async (pcm: Buffer) => {
    tap?.write(pcm);
    if (!input.write(pcm)) await Promise.race([once(input, 'drain'), encoderGone]);
  };
  const closeMusic = () => music?.close().catch(() => undefined);
  return {
    async append(wavPath, pauseBeforeMs) {
      if (offsetsMs.length === 0 && options.music) {
        const bed = await options.music;
        music = bed ? await createMusicMixer(bed, sampleRate, MP3_GAIN_DB) : null;
      }
      const layout = await wavLayout(wavPath, wavPath);
      if (layout.samples / layout.sampleRate > LONGEST_LEVELLED_HERE_S) {
        // A long sound (a pre-recorded file, an intro, a whole narration) is levelled by ffmpeg and streamed through.
        const filter = levelFilter(await measureFile(wavPath), MP3_GAIN_DB);
        if (offsetsMs.length > 0) await send(await silence(pauseBeforeMs, (mixer, pause) => mixer.betweenSentences(pause)));
        offsetsMs.push((samples * 1000) / sampleRate);
        for await (const chunk of streamLevelled(wavPath, filter, sampleRate)) {
          await music?.underSpeech(new Int16Array(chunk.buffer, chunk.byteOffset, chunk.length >> 1));
          await send(chunk);
          samples += chunk.length >> 1;
        }
        return;
      }
      const wav = await readWav(wavPath);
      const pcm = wav.sampleRate === sampleRate && isPcm16Mono(wav) ? wav.data : await resample(wavPath, sampleRate);
      const sound = await level(pcm16(pcm), sampleRate);
      if (offsetsMs.length > 0) await send(await silence(pauseBeforeMs, (mixer, pause) => mixer.betweenSentences(pause)));
      offsetsMs.push((samples * 1000) / sampleRate);
      await music?.underSpeech(sound);
      await send(Buffer.from(sound.buffer, sound.byteOffset, sound.byteLength));
      samples += sound.length;
    },
    async finish(trailingPauseMs = 0) {
      if (offsetsMs.length === 0) {
        input.end();
        tap?.abort();
        await closeMusic();
        throw new MediaError('invalid-input', 'nothing to assemble');
      }
      const ending = await silence(music ? Math.max(trailingPauseMs, MUSIC_TAIL_MS) : trailingPauseMs, (mixer, pause) => mixer.atTheEnd(pause));
      await closeMusic();
      tap?.write(ending);
      input.end(ending);
      try {
        await Promise.all([encoding, tap?.close()]);
      } finally {
        watcher.stop();
      }
      await watcher.noticed();
      const hlsSegmentPaths = segmentsOf(await readFile(hlsPlaylistPath, 'utf8')).map((uri) => join(outDir, uri));
      return { mp3Path, hlsPlaylistPath, hlsSegmentPaths, durationMs: ((samples + MP3_PRIMING_SAMPLES) * 1000) / sampleRate, offsetsMs };
    },
    abort() {
      watcher.stop();
      tap?.abort();
      input.end();
      void closeMusic();
    },
  };
}

/** All parts at once, each followed by its pause, at the sample rate most of them already have. */
export async function assemble(parts: readonly AssemblyPart[], outDir: string, name: string): Promise<Assembly> {
  if (parts.length === 0) throw new MediaError('invalid-input', 'nothing to assemble');
  // Headers only: the parts are read one at a time as they join the timeline.
  const audio = await Promise.all(
    parts.map(({ wavPath }) =>
      wavLayout(wavPath, wavPath).catch((error: Error) => {
        throw error instanceof MediaError ? error : new MediaError('invalid-input', `cannot read part ${wavPath}: ${error.message}`);
      }),
    ),
  );
  const writer = await startAssembly(outDir, name, mostCommonRate(audio));
  for (const [i, part] of parts.entries()) await writer.append(part.wavPath, parts[i - 1]?.pauseAfterMs ?? 0);
  return writer.finish(parts[parts.length - 1]!.pauseAfterMs);
}

async function readWav(wavPath: string): Promise<WavAudio> {
  const file = await readFile(wavPath).catch((error: Error) => {
    throw new MediaError('invalid-input', `cannot read part ${wavPath}: ${error.message}`);
  });
  return parseWav(file, wavPath);
}

/** 16-bit little-endian PCM as samples: a view of the same memory where the layout allows it, else a copy. */
function pcm16(pcm: Buffer): Int16Array {
  if (LITTLE_ENDIAN && pcm.byteOffset % 2 === 0) return new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
  return Int16Array.from({ length: pcm.length >> 1 }, (_, i) => pcm.readInt16LE(i * 2));
}

/** The rate most parts already have, so that as few as possible are resampled. */
function mostCommonRate(audio: readonly Pick<WavAudio, 'sampleRate'>[]): number {
  const counts = new Map<number, number>();
  for (const { sampleRate } of audio) counts.set(sampleRate, (counts.get(sampleRate) ?? 0) + 1);
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/**
 * Sounds up to this long are levelled here, as a whole (src/media/loudness.ts: a sentence, a short recording); longer
 * ones by ffmpeg, streamed, so the process never holds a sound of unbounded length nor loops over it.
 */
const LONGEST_LEVELLED_HERE_S = 60;
/** What the levelling ffmpeg hands over at a time: 64 KB, 1.5 s at 22,050 Hz. */
const STREAM_CHUNK_BYTES = 64 * 1024;

/** A long WAV levelled by `filter`, as 16-bit mono samples at `sampleRate` in the machine's byte order, chunk by chunk. */
async function* streamLevelled(wavPath: string, filter: string, sampleRate: number): AsyncGenerator<Buffer> {
  const args = ['-v', 'error', '-nostdin', '-f', 'wav', '-protocol_whitelist', 'file', '-i', `file:${wavPath}`, '-af', filter, '-ac', '1', '-ar', String(sampleRate), '-f', PCM_FORMAT, 'pipe:1'];
  const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', (code) => resolve(code));
  });
  let pending: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      if (pending.length < STREAM_CHUNK_BYTES) continue;
      // Whole samples only, in a buffer of their own (aligned for an Int16Array view).
      const whole = pending.length & ~1;
      yield Buffer.from(pending.subarray(0, whole));
      pending = pending.subarray(whole);
    }
    if (pending.length >= 2) yield Buffer.from(pending.subarray(0, pending.length & ~1));
    const code = await exited;
    if (code !== 0) throw new MediaError('tool-failed', `ffmpeg could not level ${wavPath}: ${tail(stderr)}`);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

async function resample(wavPath: string, sampleRate: number): Promise<Buffer> {
  return ffmpeg(['-i', wavPath, '-ac', '1', '-ar', String(sampleRate), '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1']);
}

/** The segment URIs a playlist lists. */
const segmentsOf = (playlist: string) => playlist.split('\n').filter((line) => line && !line.startsWith('#'));

/** Reads the growing playlist until it lists a segment, then calls `onListenable` once; nothing to do without it. */
function watchPlaylist(playlistPath: string, onListenable: AssemblyOptions['onListenable']) {
  let noticed: Promise<void> | undefined;
  let reading = false;
  const poll = async () => {
    if (reading || !onListenable) return;
    reading = true;
    const playlist = await readFile(playlistPath, 'utf8').catch(() => '');
    reading = false;
    if (noticed || !timer || segmentsOf(playlist).length === 0) return;
    stop();
    noticed = onListenable();
    // Awaited by finish(); until then a failure must not surface as an unhandled rejection.
    noticed.catch(() => undefined);
  };
  let timer: NodeJS.Timeout | undefined = onListenable ? setInterval(() => void poll(), PLAYLIST_POLL_MS) : undefined;
  function stop() {
    clearInterval(timer);
    timer = undefined;
  }
  return { stop, noticed: () => noticed };
}

async function ffmpeg(args: string[], input?: Readable, cwd?: string): Promise<Buffer> {
  const run = await runTool('ffmpeg', ['-v', 'error', '-y', ...args], { ...(input ? { input } : {}), ...(cwd ? { cwd } : {}) });
  if (run.code !== 0) throw new MediaError('tool-failed', `ffmpeg ${args.join(' ')} failed: ${run.startError?.message ?? tail(run.stderr)}`);
  return run.stdout;
}
