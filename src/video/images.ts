// Images of a video (feature image, image segments, logo): fetched, then admitted by the media intake: an allowed
// image format (png, jpeg, webp, gif) of at most the allowed pixels, its size read from its header, nothing decoded.
import type { MediaFormat } from '../media/intake.ts';
import { admitImage, inputOptions } from '../media/intake.ts';
import { admitted, download, type AssetLimits } from './assets.ts';

export type ImageLimits = AssetLimits;

export interface FetchedImage {
  path: string;
  width: number;
  height: number;
  /** What ffmpeg is given before `-i` for it: its format's demuxer and the file protocol alone (src/media/intake.ts). */
  inputOptions?: readonly string[];
  format?: MediaFormat;
}

export async function fetchImage(url: string, file: string, limits: ImageLimits, signal?: AbortSignal): Promise<FetchedImage> {
  await download(url, file, limits, signal);
  const image = await admitted(url, file, () => admitImage(file, url, { maxPixels: limits.maxPixels }));
  return { path: file, width: image.width, height: image.height, inputOptions: inputOptions(image.format), format: image.format };
}
