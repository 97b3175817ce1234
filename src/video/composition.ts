// The ffmpeg command of one render: inputs, the filter graph (background, images, waveform, logo, captions) and the encoding.
import { ffmpegColor, parseBackground, parseColor, type Rgba } from './paint.ts';
import type { FetchedImage } from './images.ts';
import type { ImageSlot } from './slots.ts';
import type { VideoRenderRequest } from './port.ts';

export interface CompositionAssets {
  images: FetchedImage[];
  slots: ImageSlot[];
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

/** Images wider than the frame by this much drift across it when `pan_and_zoom_enabled`. */
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
    const pan = settings.panAndZoomEnabled ? `,crop=${width}:${height}:x='(iw-ow)*(0.5+0.5*sin(t/6+${index}))':y='(ih-oh)*(0.5+0.5*cos(t/7+${index}))'` : '';
    graph.push(`[${next}:v]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},format=yuv420p,${still(fps)}${pan}[image${index}]`);
    const enable = shown.map((slot) => `between(t,${seconds(slot.start)},${seconds(slot.end)})`).join('+');
    stack(`overlay=0:0:enable='${enable}'`, `image${index}`);
    next += 1;
  });

  // Padded with silence so the sound lasts as long as the picture.
  graph.push(`[1:a]apad,atrim=end=${seconds(request.durationMs)}${settings.audioAndWaveformEnabled ? ',asplit=2[audio][sound]' : '[audio]'}`);
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
    '-threads', String(encoding.threads),
    '-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '128k',
    '-t', seconds(request.durationMs),
    '-movflags', '+faststart',
    request.outPath,
  ];
}
