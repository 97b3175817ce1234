// The ffmpeg command of one render: inputs, the filter graph (background, images, waveform, logo, captions) and the encoding.
import { ffmpegColor, parseBackground, parseColor, type Rgba } from './paint.ts';
import type { Clip } from './clips.ts';
import type { FetchedImage } from './images.ts';
import type { ImageSlot } from './slots.ts';
import type { CropCoordinates, VideoRenderRequest } from './port.ts';

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

const WAVE_RATE = 8000;
const WAVE_WINDOW_S = 4;

/** Images zoom between the frame's size and this much larger, and drift across it, when `pan_and_zoom_enabled`. */
const PAN_MARGIN = 1.12;

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** A still input becomes an endless stream at the video's rate; its frame is decoded and scaled once. */
const still = (fps: number) => `loop=loop=-1:size=1,setpts=N/(${fps}*TB)`;

function backgroundSource(css: string, width: number, height: number): string {
  const background = parseBackground(css);
  const size = `s=${width}x${height}`;
  if (background.kind === 'color') return `color=c=${opaque(background.color)}:${size}`;
  const stops = background.reversed ? [...background.stops].reverse() : background.stops;
  const colors = stops.slice(0, 8).map((color, at) => `c${at}=${opaque(color)}`).join(':');
  const end = background.vertical ? `x1=0:y1=${height - 1}` : `x1=${width - 1}:y1=0`;
  return `gradients=${size}:${colors}:nb_colors=${Math.min(8, stops.length)}:x0=0:y0=0:${end}:d=1`;
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

/** The background is the bottom layer: a colour's alpha is dropped rather than blended with nothing. */
const opaque = (color: Rgba) => ffmpegColor({ ...color, a: 1 });

export function composition(request: VideoRenderRequest, assets: CompositionAssets, encoding: EncodingOptions): string[] {
  const { settings } = request;
  const { width, height } = request.size;
  const { fps } = encoding;
  const inputs: string[] = ['-f', 'lavfi', '-i', backgroundSource(settings.backgroundColor, width, height), '-i', request.audioPath];
  // The background's end bounds the whole graph: every other layer is endless.
  const graph: string[] = [`[0:v]trim=end_frame=1,format=yuv420p,${still(fps)},trim=end=${seconds(request.durationMs)}[bg0]`];
  let layer = 'bg0';
  let next = 2;
  const clips = assets.clips ?? [];
  const stack = (filter: string, input: string) => {
    const out = `bg${graph.length}`;
    graph.push(`[${layer}][${input}]${filter}[${out}]`);
    layer = out;
  };

  assets.images.forEach((image, index) => {
    const shown = assets.slots.filter((slot) => slot.image === index);
    if (shown.length === 0) return;
    inputs.push('-i', image.path);
    const margin = settings.panAndZoomEnabled ? PAN_MARGIN : 1;
    const [w, h] = [even(width * margin), even(height * margin)];
    // Ken Burns: the picture, scaled to cover the frame once (12 % larger), is scaled down a little each frame, between
    // that and the frame's size (a fast bilinear step), and slides by the overlay's position: the overlay clips it.
    // Half way in at first and zooming in, so that even a short video shows the motion.
    const zoom = `(1+${((PAN_MARGIN - 1) / 2).toFixed(3)}*(1+sin(t/5+${index})))`;
    const motion = settings.panAndZoomEnabled
      ? `,scale=w='max(${width},2*trunc(${width}*${zoom}/2))':h='max(${height},2*trunc(${height}*${zoom}/2))':eval=frame:flags=fast_bilinear`
      : '';
    const at = settings.panAndZoomEnabled ? `x='-(w-W)*(0.5+0.5*sin(t/6+${index}))':y='-(h-H)*(0.5+0.5*cos(t/7+${index}))'` : '0:0';
    const enable = shown.map((slot) => `between(t,${seconds(slot.start)},${seconds(slot.end)})`).join('+');
    const hidden = clips.filter((clip) => clip.hidesImages).map((clip) => `between(t,${seconds(clip.start)},${seconds(clip.end)})`);
    const onScreen = hidden.length > 0 ? `(${enable})*not(${hidden.join('+')})` : enable;
    // Frames of the image are only made while it is on screen (the overlay keeps its last one through the gaps), and
    // none after its last slot: a stream that never sends another frame would hold the overlay forever.
    const last = Math.max(...shown.map((slot) => slot.end));
    // A zooming picture is rescaled at half the frame rate, which halves its cost: steps of under a pixel, while the
    // overlay still moves it at every frame.
    const visible = `trim=end=${seconds(last)},select='${settings.panAndZoomEnabled ? 'not(mod(n,2))*' : ''}(${enable})'`;
    graph.push(`[${next}:v]${cropOf(image, width, height)}scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},format=yuv420p,${still(fps)},${visible}${motion}[image${index}]`);
    stack(`overlay=${at}:enable='${onScreen}'`, `image${index}`);
    next += 1;
  });

  // Videos over the images, fitted inside the frame and centred, each from its moment; their sound under the narration.
  const sounds: string[] = [];
  clips.forEach((clip, index) => {
    if (clip.end <= clip.start) return;
    inputs.push(...(clip.loop ? ['-stream_loop', '-1'] : []), '-i', clip.path);
    const length = seconds(clip.end - clip.start);
    const fit = `scale=${width}:${height}:force_original_aspect_ratio=decrease,setsar=1`;
    graph.push(`[${next}:v]${cropOf(clip, width, height)}${fit},fps=${fps},format=yuv420p,trim=duration=${length},setpts=PTS-STARTPTS+${seconds(clip.start)}/TB[clip${index}]`);
    stack(`overlay=x=(W-w)/2:y=(H-h)/2:eof_action=pass:enable='between(t,${seconds(clip.start)},${seconds(clip.end)})'`, `clip${index}`);
    if (clip.hasAudio && clip.volume > 0) {
      graph.push(`[${next}:a]atrim=duration=${length},asetpts=PTS-STARTPTS,volume=${clip.volume.toFixed(2)},adelay=${Math.round(clip.start)}:all=1[clipsound${index}]`);
      sounds.push(`[clipsound${index}]`);
    }
    next += 1;
  });

  // Padded with silence so the sound lasts as long as the picture.
  const narration = sounds.length > 0 ? `[1:a]${sounds.join('')}amix=inputs=${sounds.length + 1}:duration=first:normalize=0,` : '[1:a]';
  graph.push(`${narration}apad,atrim=end=${seconds(request.durationMs)}${settings.audioAndWaveformEnabled ? ',asplit=2[audio][sound]' : '[audio]'}`);
  if (settings.audioAndWaveformEnabled) {
    const band = even(height / 6);
    const color = parseColor(settings.waveformColor);
    // A 4-second window that scrolls slowly: a waveform redrawn in full every frame would cost more to encode than the
    // rest of the picture together. 8 kHz is plenty for its shape.
    const perColumn = Math.max(1, Math.round((WAVE_RATE * WAVE_WINDOW_S) / width));
    graph.push(`[sound]aresample=${WAVE_RATE},showwaves=s=${width}x${band}:mode=cline:n=${perColumn}:rate=${fps}:colors=${ffmpegColor(color)}:scale=sqrt[wave]`);
    // Under captions at the bottom or top the waveform sits mid-frame; under centred captions, at the bottom.
    const y = settings.textVerticalAlign === 'center' ? height - band - Math.round(height * 0.04) : Math.round((height - band) / 2);
    stack(`overlay=0:${y}`, 'wave');
  }

  if (assets.logo) {
    inputs.push('-i', assets.logo.path);
    const margin = Math.round(Math.min(width, height) * 0.04);
    graph.push(`[${next}:v]scale=${even(width / 5)}:${even(height / 8)}:force_original_aspect_ratio=decrease,format=yuva420p,${still(fps)}[logo]`);
    const x = settings.logoImagePosition === 'top-left' ? `${margin}` : `W-w-${margin}`;
    stack(`overlay=${x}:${margin}`, 'logo');
    next += 1;
  }

  if (assets.captions) {
    const out = `bg${graph.length}`;
    graph.push(`[${layer}]ass=captions.ass:fontsdir=${assets.fontsDir}[${out}]`);
    layer = out;
  }

  return [
    '-nostdin', '-nostats', '-v', 'verbose', '-y',
    '-filter_complex_threads', String(encoding.threads),
    ...inputs,
    '-filter_complex', graph.join(';'),
    '-map', `[${layer}]`, '-map', '[audio]',
    '-c:v', 'libx264', '-preset', encoding.preset, '-crf', '23', '-pix_fmt', 'yuv420p', '-r', String(fps), '-g', String(fps * 4),
    // No B-frames: a fifth less encoding time on these slowly moving pictures, for about a seventh more bytes at the
    // same CRF (bench/video.ts).
    '-x264-params', 'bframes=0', '-threads', String(encoding.threads),
    '-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '128k',
    '-t', seconds(request.durationMs),
    '-movflags', '+faststart',
    request.outPath,
  ];
}
