// Videos inside a video: the item's feature video (from the start) and its video segments (from the moment they are
// reached), each fetched through the guarded fetcher, admitted by the media intake (mp4, webm or mov, at most the
// allowed pixels per frame, measured by ffprobe through its own demuxer), timed, and given its segment's settings.
import type { FetchedFiles } from '../media/fetches.ts';
import { admitVideo, inputOptions } from '../media/intake.ts';
import { admitted, download, type AssetLimits } from './assets.ts';
import type { CropCoordinates, MediaVideoSettings, VideoRenderRequest } from './port.ts';

export interface ClipSource {
  url: string;
  /** When it starts, in milliseconds of the narration. */
  at: number;
  settings: MediaVideoSettings;
}

export interface Clip {
  path: string;
  /** What ffmpeg is given before `-i` for it: its format's demuxer and the file protocol alone (src/media/intake.ts). */
  inputOptions?: readonly string[];
  width: number;
  height: number;
  hasAudio: boolean;
  start: number;
  end: number;
  /** Played again and again until its end (`plays_in_background`), else once. */
  loop: boolean;
  /** 0 to 1. */
  volume: number;
  /** Images are not shown while it plays (`hides_background_images`). */
  hidesImages: boolean;
  crop: CropCoordinates | null;
}

/** The feature video and the video segments, in time order; one whose `video_settings.enabled` is false is left out. */
export function clipSources(request: Pick<VideoRenderRequest, 'segments' | 'featureVideo'>): ClipSource[] {
  const feature = request.featureVideo && request.featureVideo.video_settings?.enabled !== false ? [{ url: request.featureVideo.url, at: 0, settings: request.featureVideo.video_settings ?? {} }] : [];
  const segments = request.segments
    .filter((segment) => segment.content_type === 'video' && segment.video_url && segment.video_settings?.enabled !== false)
    .map((segment) => ({ url: segment.video_url!, at: segment.start_time, settings: segment.video_settings ?? {} }));
  return [...feature, ...segments].sort((a, b) => a.at - b.at);
}

/**
 * Fetches a clip and times it: it plays for its own length, or, playing in the background, loops until the next clip
 * starts; never past the narration's end.
 */
export async function fetchClip(source: ClipSource, next: ClipSource | undefined, durationMs: number, fetched: FetchedFiles, limits: AssetLimits, signal?: AbortSignal): Promise<Clip> {
  // Kept in the item's fetch folder like its images: a retried render admits the file it already has.
  const file = await fetched.once(source.url, (target) => download(source.url, target, limits, signal));
  const video = await admitted(source.url, file, () => admitVideo(file, source.url, { maxPixels: limits.maxPixels, timeoutMs: 10_000 }));
  const length = video.durationMs;
  const loop = source.settings.plays_in_background === true;
  const start = Math.min(source.at, durationMs);
  const end = Math.min(durationMs, loop ? (next?.at ?? durationMs) : start + length);
  return {
    path: file,
    inputOptions: inputOptions(video.format),
    width: video.width,
    height: video.height,
    hasAudio: video.hasAudio,
    start,
    end: Math.max(start, end),
    loop,
    volume: Math.min(100, Math.max(0, source.settings.volume ?? 100)) / 100,
    hidesImages: source.settings.hides_background_images === true,
    crop: source.settings.crop_coordinates ?? null,
  };
}
