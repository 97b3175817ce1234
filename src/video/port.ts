// What the video renderer takes and gives: the generation workflow and the preview operations both render through it.
import type { VideoSettings } from '../player/videoSettings.ts';

/** A word as players time it: milliseconds from the start of the narration. */
export interface TimedWord {
  text: string;
  start_time: number;
  duration: number;
}

/** `crop_coordinates`: per frame shape, the part of an image or video shown, as `[x, y, width, height]` in its pixels. */
export interface CropCoordinates {
  '16:9'?: number[];
  '9:16'?: number[];
}

/** The `video_settings` of a segment, feature image or feature video. */
export interface MediaVideoSettings {
  enabled?: boolean;
  volume?: number;
  plays_in_background?: boolean;
  hides_background_images?: boolean;
  crop_coordinates?: CropCoordinates | null;
}

/** A timed segment of the narration, as the item's `segments` list it (images and videos last 0 ms at their place). */
export interface TimedSegment {
  content_type: string;
  section: string | null;
  text: string | null;
  image_url: string | null;
  video_url: string | null;
  start_time: number;
  duration: number;
  words: TimedWord[];
  video_settings?: MediaVideoSettings | null;
}

export interface VideoRenderRequest {
  /** The narration (mp3 or wav) the video carries as its sound. */
  audioPath: string;
  durationMs: number;
  segments: readonly TimedSegment[];
  /** The effective settings: project settings, then the template's, then the item's. */
  settings: VideoSettings;
  /** The item's feature image (shown when `content_image_enabled`), if it has one. */
  featureImageUrl: string | null;
  /** The feature image's `crop_coordinates`. */
  featureImageCrop?: CropCoordinates | null;
  /** The item's feature video, played from the start. */
  featureVideo?: { url: string; video_settings?: MediaVideoSettings | null } | null;
  /** The item's language code (en_US, ja_JP, ar_SA...): captions are shaped and laid out for it. */
  language: string;
  size: { name: string; width: number; height: number };
  outPath: string;
  /** Where a PNG frame of the video is written, if asked. */
  posterPath?: string;
  /** The moment of the poster frame, in milliseconds (the middle of the narration when unset). */
  posterAtMs?: number;
  /** Stops the render (its ffmpeg is killed) when the workflow is cancelled or the item deleted. */
  signal?: AbortSignal;
  /**
   * Where fetched images are kept, one file per URL, so a retried render does not fetch them again (the item's
   * generation's fetch folder); a folder of the render's own, removed with it, when unset.
   */
  fetchedDir?: string;
}

export interface RenderedVideo {
  path: string;
  durationMs: number;
  width: number;
  height: number;
  /** The font files the captions were drawn with, for the log. */
  fonts: string[];
}

export interface VideoRenderer {
  render(request: VideoRenderRequest): Promise<RenderedVideo>;
}
