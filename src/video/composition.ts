// The ffmpeg command of one render: inputs, the filter graph (background, images, waveform, logo, captions) and the encoding.
import { ffmpegColor, gradientGeometry, parseBackground, parseColor, type Rgba } from './paint.ts';
import type { Clip } from './clips.ts';
import type { FetchedImage } from './images.ts';
import type { ImageSlot } from './slots.ts';
import type { CropCoordinates, VideoRenderRequest } from './port.ts';
import { during } from './during.ts';

export interface CompositionAssets {
  /** Each image with the `crop_coordinates` of its feature image or segment. */
  images: (FetchedImage & { crop?: CropCoordinates | null })[];
  slots: ImageSlot[];
  /** The feature video and video segments, timed. */
  clips?: Clip[];
  logo: FetchedImage | null;
  /** True when `captions.ass` is in the working directory. */
  captions: boolean;
  /** The fonts directory libass reads besides the installed fonts, relative to the working directory. */
  fontsDir: string;
}

export interface EncodingOptions {
  fps: number;
  threads: number;
  preset: string;
}

/**
 * A part of the video, for a render split in time across processes (see render.ts): its frames from `fromMs` to
 * `toMs`, without sound, timed from zero; the parts are joined and the sound added by `joinParts`.
 */
export interface Span {
  fromMs: number;
  toMs: number;
}

/**
 * x264 for pictures that change slowly: no B-frames (a fifth less encoding time for about a seventh more bytes at
 * the same CRF) and the quickest motion search (diamond, one refinement: 12 % less CPU for 2 % more bytes than
 * veryfast's own; bench/video.ts).
 */
const X264_PARAMS = 'bframes=0:me=dia:subme=1';
/**
 * Frames past 1920×1080 are encoded without x264's lookahead, whose frames dominate the memory of large renders
 * (4 s of 3840×3840: 800 MB with veryfast's lookahead, 400 MB without), so the largest size accepted stays within
 * the render's memory bound.
 */
const LARGE_FRAME_PIXELS = 1920 * 1080;
const x264Params = (width: number, height: number) => (width * height > LARGE_FRAME_PIXELS ? `${X264_PARAMS}:rc-lookahead=0:sync-lookahead=0` : X264_PARAMS);

/** The waveform's columns are this many pixels wide. */
const WAVE_COLUMN_PX = 4;

/** Images zoom between the frame's size and this much larger, and drift across it, when `pan_and_zoom_enabled`. */
const PAN_MARGIN = 1.12;

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** A still input becomes an endless stream at the video's rate from `fromMs`; its frame is decoded and scaled once. */
const still = (fps: number, fromMs = 0) => `loop=loop=-1:size=1,setpts=N/(${fps}*TB)${fromMs > 0 ? `+${seconds(fromMs)}/TB` : ''}`;

/** ffmpeg's `gradients` source draws 2 to 8 colours: more stops are sampled evenly down to 8. */
const MAX_GRADIENT_COLORS = 8;

function backgroundSource(css: string, width: number, height: number): string {
  const background = parseBackground(css);
  const size = `s=${width}x${height}`;
  if (background.kind === 'color') return `color=c=${opaque(background.color)}:${size}`;
  const { length, breadth, rotation } = gradientGeometry(background.direction, width, height);
  const count = Math.min(MAX_GRADIENT_COLORS, background.stops.length);
  const stops = Array.from({ length: count }, (_, at) => background.stops[Math.round((at * (background.stops.length - 1)) / (count - 1))]!);
  const colors = stops.map((color, at) => `c${at}=${opaque(color)}`).join(':');
  // One frame (the graph repeats it): the turn is made once.
  const line = `gradients=s=${length}x${breadth}:${colors}:nb_colors=${count}:x0=0:y0=0:x1=${length - 1}:y1=0:r=1:d=1`;
  return Math.abs(rotation) < 1e-6 ? `${line},crop=${width}:${height}` : `${line},rotate=a=${rotation.toFixed(6)}:ow=${width}:oh=${height}:c=${opaque(stops[0]!)}`;
}

/**
 * The part of an image `crop_coordinates` keeps for the frame's shape (`16:9` for landscape frames, `9:16` for
 * portrait ones; square frames have none): `[x, y, width, height]` in the image's pixels, kept inside the image.
 */
export function cropOf(image: { width: number; height: number; crop?: CropCoordinates | null }, width: number, height: number): string {
  const shape = width > height ? '16:9' : height > width ? '9:16' : null;
  const coordinates = shape ? image.crop?.[shape] : undefined;
  if (!coordinates || coordinates.length < 4 || !coordinates.every(Number.isFinite)) return '';
  const [x, y] = [Math.min(Math.max(0, Math.floor(coordinates[0]!)), image.width - 2), Math.min(Math.max(0, Math.floor(coordinates[1]!)), image.height - 2)];
  const [w, h] = [Math.min(Math.floor(coordinates[2]!), image.width - x), Math.min(Math.floor(coordinates[3]!), image.height - y)];
  return w >= 2 && h >= 2 ? `crop=${w}:${h}:${x}:${y},` : '';
}

/**
 * An overlay's position that puts its picture past the frame's right edge (nothing drawn) while `visible` is 0. Not
 * the overlay's `enable`: ffmpeg evaluates that at the time of the frame it last read from either input, and an
 * overlay reads its picture ahead, so an image came back a frame late after each gap; the position is evaluated at
 * the time of the frame drawn on.
 */
const offScreenUnless = (visible: string, x: string) => `if(${visible},${x},W)`;

/** The background is the bottom layer: a colour's alpha is dropped rather than blended with nothing. */
const opaque = (color: Rgba) => ffmpegColor({ ...color, a: 1 });

/** The ffmpeg arguments of a whole render, or of one `span` of it. */
export function composition(request: VideoRenderRequest, assets: CompositionAssets, encoding: EncodingOptions, span?: Span): string[] {
  const { settings } = request;
  const { width, height } = request.size;
  const { fps } = encoding;
  const clips = assets.clips ?? [];
  if (span && clips.length > 0) throw new Error('a render with videos in it is not split');
  const [from, to] = span ? [span.fromMs, span.toMs] : [0, request.durationMs];
  // Each frame's waveform is the narration spoken during that frame: a part reads the narration of its own frames.
  const audio = span ? ['-ss', seconds(from), '-t', seconds(to - from), '-i', request.audioPath] : ['-i', request.audioPath];
  const inputs: string[] = ['-f', 'lavfi', '-i', backgroundSource(settings.backgroundColor, width, height), ...audio];
  // The background's end bounds the whole graph: every other layer is endless.
  const graph: string[] = [`[0:v]trim=end_frame=1,format=yuv420p,${still(fps, from)},trim=end=${seconds(to)}[bg0]`];
  let layer = 'bg0';
  let next = 2;
  const stack = (filter: string, input: string) => {
    const out = `bg${graph.length}`;
    graph.push(`[${layer}][${input}]${filter}[${out}]`);
    layer = out;
  };

  assets.images.forEach((image, index) => {
    const shown = assets.slots.filter((slot) => slot.image === index && slot.end > from && slot.start < to);
    if (shown.length === 0) return;
    inputs.push(...(image.inputOptions ?? []), '-i', image.path);
    const margin = settings.panAndZoomEnabled ? PAN_MARGIN : 1;
    const [w, h] = [even(width * margin), even(height * margin)];
    // Ken Burns: the picture, scaled to cover the frame once (12 % larger), is scaled down a little each frame, between
    // that and the frame's size (a fast bilinear step), and slides by the overlay's position: the overlay clips it.
    // Half way in at first and zooming in, so that even a short video shows the motion.
    const zoom = `(1+${((PAN_MARGIN - 1) / 2).toFixed(3)}*(1+sin(t/5+${index})))`;
    const motion = settings.panAndZoomEnabled
      ? `,scale=w='max(${width},2*trunc(${width}*${zoom}/2))':h='max(${height},2*trunc(${height}*${zoom}/2))':eval=frame:flags=fast_bilinear`
      : '';
    const [x, y] = settings.panAndZoomEnabled ? [`-(w-W)*(0.5+0.5*sin(t/6+${index}))`, `-(h-H)*(0.5+0.5*cos(t/7+${index}))`] : ['0', '0'];
    const enable = during(shown.map((slot) => [slot.start, slot.end]));
    const hidden = clips.filter((clip) => clip.hidesImages).map((clip) => [clip.start, clip.end] as const);
    const onScreen = hidden.length > 0 ? `(${enable})*not(${during(hidden)})` : enable;
    // Frames of the image are only made while it is on screen (the overlay keeps its last one through the gaps), and
    // none after its last slot: a stream that never sends another frame would hold the overlay forever.
    const last = Math.max(...shown.map((slot) => slot.end));
    // A zooming picture is rescaled at half the frame rate, which halves its cost: steps of under a pixel, while the
    // overlay still moves it at every frame. The first frame of each slot is always made.
    const halfRate = `*(isnan(prev_selected_t)+gte(t-prev_selected_t,${(1.5 / fps).toFixed(3)}))`;
    const visible = `trim=end=${seconds(last)},select='(${enable})${settings.panAndZoomEnabled ? halfRate : ''}'`;
    graph.push(`[${next}:v]${cropOf(image, width, height)}scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},format=yuv420p,${still(fps, from)},${visible}${motion}[image${index}]`);
    stack(`overlay=x='${offScreenUnless(onScreen, x)}':y='${y}'`, `image${index}`);
    next += 1;
  });

  // Videos over the images, fitted inside the frame and centred, each from its moment; their sound under the narration.
  const sounds: string[] = [];
  clips.forEach((clip, index) => {
    if (clip.end <= clip.start) return;
    inputs.push(...(clip.loop ? ['-stream_loop', '-1'] : []), ...(clip.inputOptions ?? []), '-i', clip.path);
    const length = seconds(clip.end - clip.start);
    const fit = `scale=${width}:${height}:force_original_aspect_ratio=decrease,setsar=1`;
    graph.push(`[${next}:v]${cropOf(clip, width, height)}${fit},fps=${fps},format=yuv420p,trim=duration=${length},setpts=PTS-STARTPTS+${seconds(clip.start)}/TB[clip${index}]`);
    stack(`overlay=x='${offScreenUnless(during([[clip.start, clip.end]]), '(W-w)/2')}':y=(H-h)/2:eof_action=pass`, `clip${index}`);
    if (clip.hasAudio && clip.volume > 0) {
      graph.push(`[${next}:a]atrim=duration=${length},asetpts=PTS-STARTPTS,volume=${clip.volume.toFixed(2)},adelay=${Math.round(clip.start)}:all=1[clipsound${index}]`);
      sounds.push(`[clipsound${index}]`);
    }
    next += 1;
  });

  // Padded with silence so the sound lasts as long as the picture. A part has no sound of its own: its narration,
  // timed from the part's first frame, only draws the waveform.
  const narration = sounds.length > 0 ? `[1:a]${sounds.join('')}amix=inputs=${sounds.length + 1}:duration=first:normalize=0,` : '[1:a]';
  if (span) {
    if (settings.audioAndWaveformEnabled) graph.push(`[1:a]apad,atrim=end=${seconds(to - from)},asetpts=PTS-STARTPTS+${seconds(from)}/TB[sound]`);
  } else {
    graph.push(`${narration}apad,atrim=end=${seconds(request.durationMs)}${settings.audioAndWaveformEnabled ? ',asplit=2[audio][sound]' : '[audio]'}`);
  }
  if (settings.audioAndWaveformEnabled) {
    const band = even(height / 6);
    const color = parseColor(settings.waveformColor);
    // One frame of waveform per video frame, drawn from the narration spoken during it: showwaves draws one sample a
    // column and sends a frame once the row is full, so the narration is resampled to fps × columns samples a second
    // and every frame shows the 1/fps s being heard (silence draws a flat line). Columns 4 pixels wide: a wave of one
    // sample a pixel is noise to the encoder (a 720p minute of it alone was 10.5 MB; 3.5 MB at 4 pixels).
    const columns = Math.max(8, Math.round(width / WAVE_COLUMN_PX));
    graph.push(`[sound]aresample=${fps * columns},showwaves=s=${columns}x${band}:mode=cline:rate=${fps}:colors=${ffmpegColor(color)}:scale=sqrt,scale=${width}:${band}:flags=neighbor[wave]`);
    // Under captions at the bottom or top the waveform sits mid-frame; under centred captions, at the bottom.
    const y = settings.textVerticalAlign === 'center' ? height - band - Math.round(height * 0.04) : Math.round((height - band) / 2);
    stack(`overlay=0:${y}`, 'wave');
  }

  if (assets.logo) {
    inputs.push(...(assets.logo.inputOptions ?? []), '-i', assets.logo.path);
    const margin = Math.round(Math.min(width, height) * 0.04);
    graph.push(`[${next}:v]scale=${even(width / 5)}:${even(height / 8)}:force_original_aspect_ratio=decrease,format=yuva420p,${still(fps, from)}[logo]`);
    const x = settings.logoImagePosition === 'top-left' ? `${margin}` : `W-w-${margin}`;
    stack(`overlay=${x}:${margin}`, 'logo');
    next += 1;
  }

  if (assets.captions) {
    const out = `bg${graph.length}`;
    graph.push(`[${layer}]ass=captions.ass:fontsdir=${assets.fontsDir}[${out}]`);
    layer = out;
  }

  // A part ends at its end (an overlay lasts as long as its longest input), its frames timed from zero, as the parts
  // are joined one after the other.
  if (span) graph.push(`[${layer}]trim=end=${seconds(to)},setpts=PTS-STARTPTS[part]`);
  const video = ['-c:v', 'libx264', '-preset', encoding.preset, '-crf', '23', '-pix_fmt', 'yuv420p', '-r', String(fps), '-g', String(fps * 4), '-x264-params', x264Params(width, height), '-threads', String(encoding.threads)];
  return [
    '-nostdin', '-nostats', '-v', 'verbose', '-y',
    // The graph's filters on one thread: slice threads cost more in handing over than they save (bench/video.ts).
    '-filter_complex_threads', '1',
    ...inputs,
    '-filter_complex', graph.join(';'),
    ...(span
      ? ['-map', '[part]', ...video, '-an', request.outPath]
      : ['-map', `[${layer}]`, '-map', '[audio]', ...video, ...AUDIO, '-t', seconds(request.durationMs), '-movflags', '+faststart', request.outPath]),
  ];
}

const AUDIO = ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '128k'];

/** The concat list `joinParts` reads as `parts.txt`: the parts' files in order, relative to the working directory. */
export const partsList = (files: readonly string[]): string => files.map((file) => `file '${file}'\n`).join('');

/**
 * Joins the parts of a split render (`parts.txt`, a `partsList` in the working directory) without re-encoding them,
 * and adds the narration, padded with silence to the video's length.
 */
export function joinParts(request: VideoRenderRequest): string[] {
  const length = seconds(request.durationMs);
  return [
    '-nostdin', '-nostats', '-v', 'error', '-y',
    '-f', 'concat', '-safe', '0', '-i', 'parts.txt', '-i', request.audioPath,
    '-filter_complex', `[1:a]apad,atrim=end=${length}[audio]`,
    '-map', '0:v', '-map', '[audio]', '-c:v', 'copy', ...AUDIO, '-t', length, '-movflags', '+faststart', request.outPath,
  ];
}
