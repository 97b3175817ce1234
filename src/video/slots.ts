// When each image is on screen, per `playback_mode`: `cycle` shows them in turn for `cycle_time` each, `space-evenly`
// shares the narration between them, `follow-article` shows each image segment from the moment it is reached.
import type { CropCoordinates, VideoRenderRequest } from './port.ts';

/** An image to fetch, with the part of it to show: the same picture cropped two ways is two images. */
export interface ImageSource {
  url: string;
  crop: CropCoordinates | null;
}

export interface ImageSlot {
  /** Index into `images`. */
  image: number;
  start: number;
  end: number;
}

export function imageSlots(request: Pick<VideoRenderRequest, 'segments' | 'settings' | 'featureImageUrl' | 'featureImageCrop' | 'durationMs'>): { images: ImageSource[]; slots: ImageSlot[] } {
  const { settings, durationMs } = request;
  const feature = settings.contentImageEnabled && request.featureImageUrl ? [{ url: request.featureImageUrl, crop: request.featureImageCrop ?? null, at: 0 }] : [];
  const segments = request.segments
    .filter((segment) => segment.content_type === 'image' && segment.image_url && segment.video_settings?.enabled !== false)
    .map((segment) => ({ url: segment.image_url!, crop: segment.video_settings?.crop_coordinates ?? null, at: segment.start_time }));
  const shown = [...feature, ...segments];
  const key = (entry: ImageSource) => JSON.stringify([entry.url, entry.crop]);
  const keys = [...new Set(shown.map(key))];
  const images = keys.map((each) => shown.find((entry) => key(entry) === each)!).map(({ url, crop }) => ({ url, crop }));
  const index = (entry: ImageSource) => keys.indexOf(key(entry));
  if (shown.length === 0 || durationMs <= 0) return { images, slots: [] };
  if (settings.playbackMode === 'follow-article') {
    const ordered = [...shown].sort((a, b) => a.at - b.at);
    const slots = ordered.map((entry, at) => ({ image: index(entry), start: entry.at, end: ordered[at + 1]?.at ?? durationMs }));
    return { images, slots: slots.filter((slot) => slot.end > slot.start) };
  }
  if (settings.playbackMode === 'space-evenly') {
    const share = durationMs / shown.length;
    return { images, slots: shown.map((entry, at) => ({ image: index(entry), start: at * share, end: (at + 1) * share })) };
  }
  const slots: ImageSlot[] = [];
  for (let start = 0, at = 0; start < durationMs; start += settings.cycleTime, at++) {
    slots.push({ image: index(shown[at % shown.length]!), start, end: Math.min(durationMs, start + settings.cycleTime) });
  }
  return { images, slots: merged(slots) };
}

/** One image cycling alone is one slot, not one per cycle. */
function merged(slots: ImageSlot[]): ImageSlot[] {
  const out: ImageSlot[] = [];
  for (const slot of slots) {
    const last = out.at(-1);
    if (last && last.image === slot.image && last.end === slot.start) last.end = slot.end;
    else out.push({ ...slot });
  }
  return out;
}
