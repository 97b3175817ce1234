// When each image is on screen, per `playback_mode`: `cycle` shows them in turn for `cycle_time` each, `space-evenly`
// shares the narration between them, `follow-article` shows each image segment from the moment it is reached.
import type { VideoRenderRequest } from './port.ts';

export interface ImageSlot {
  /** Index into `urls`. */
  image: number;
  start: number;
  end: number;
}

export function imageSlots(request: Pick<VideoRenderRequest, 'segments' | 'settings' | 'featureImageUrl' | 'durationMs'>): { urls: string[]; slots: ImageSlot[] } {
  const { settings, durationMs } = request;
  const feature = settings.contentImageEnabled && request.featureImageUrl ? [{ url: request.featureImageUrl, at: 0 }] : [];
  const segments = request.segments.filter((segment) => segment.content_type === 'image' && segment.image_url).map((segment) => ({ url: segment.image_url!, at: segment.start_time }));
  const shown = [...feature, ...segments];
  const urls = [...new Set(shown.map((entry) => entry.url))];
  const index = (url: string) => urls.indexOf(url);
  if (shown.length === 0 || durationMs <= 0) return { urls, slots: [] };
  if (settings.playbackMode === 'follow-article') {
    const ordered = [...shown].sort((a, b) => a.at - b.at);
    const slots = ordered.map((entry, at) => ({ image: index(entry.url), start: entry.at, end: ordered[at + 1]?.at ?? durationMs }));
    return { urls, slots: slots.filter((slot) => slot.end > slot.start) };
  }
  if (settings.playbackMode === 'space-evenly') {
    const share = durationMs / shown.length;
    return { urls, slots: shown.map((entry, at) => ({ image: index(entry.url), start: at * share, end: (at + 1) * share })) };
  }
  const slots: ImageSlot[] = [];
  for (let start = 0, at = 0; start < durationMs; start += settings.cycleTime, at++) {
    slots.push({ image: index(shown[at % shown.length]!.url), start, end: Math.min(durationMs, start + settings.cycleTime) });
  }
  return { urls, slots: merged(slots) };
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
