// A content item's transcript as WebVTT: one cue per spoken segment, at the segment's time in the audio.
import { SPOKEN_SEGMENT_TYPES } from './episodes.ts';

const timestamp = (ms: number) => {
  const total = Math.max(0, Math.round(ms));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(total / 3_600_000))}:${pad(Math.floor(total / 60_000) % 60)}:${pad(Math.floor(total / 1000) % 60)}.${pad(total % 1000, 3)}`;
};

/** Cue text may not hold `-->`, `<` or a bare `&`; blank lines would end the cue. */
const cueText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\s*\n\s*/g, ' ').trim();

export function renderTranscript(segments: Record<string, unknown>[]): string {
  const cues = segments
    .filter((segment) => SPOKEN_SEGMENT_TYPES.has(String(segment.content_type ?? 'text')))
    .filter((segment) => typeof segment.text === 'string' && segment.text.trim() !== '' && typeof segment.start_time === 'number')
    .map((segment, index) => {
      const start = segment.start_time as number;
      const end = start + (typeof segment.duration === 'number' ? segment.duration : 0);
      return `${index + 1}\n${timestamp(start)} --> ${timestamp(end)}\n${cueText(segment.text as string)}\n`;
    });
  return ['WEBVTT', '', ...cues].join('\n');
}
