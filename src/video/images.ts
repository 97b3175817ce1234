// Images of a video (feature image, image segments, logo): fetched, then checked to be a picture ffmpeg can decode.
import { runTool } from '../media/tool.ts';
import { download, type AssetLimits } from './assets.ts';
import { VideoRenderError } from './errors.ts';

export type ImageLimits = AssetLimits;

export interface FetchedImage {
  path: string;
  width: number;
  height: number;
}

export async function fetchImage(url: string, file: string, limits: ImageLimits, signal?: AbortSignal): Promise<FetchedImage> {
  await download(url, file, limits, signal);
  const probe = await runTool('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file], { timeoutMs: 10_000 });
  const [width, height] = probe.stdout.toString().trim().split(',').map(Number);
  if (probe.code !== 0 || !width || !height) throw new VideoRenderError('asset', `${url} is not an image ffmpeg can read`);
  return { path: file, width, height };
}
