// The background track's wire format: zod schemas (the source of the OpenAPI document) and the mapping to them.
import { z } from 'zod';
import { timestamp } from '../shared/wireResponses.ts';
import type { BackgroundTrackView } from './readModel.ts';

export const backgroundTrackWire = z
  .object({
    id: z.number().int().min(1),
    name: z.string(),
    project: z.object({ id: z.number().int().min(1) }).nullable().describe("null: the organization's track, offered to every project"),
    url: z.string(),
    volume: z.number().int().min(0).max(100),
    duration: z.number().describe('Length of the audio in seconds, measured when the URL was fetched'),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'BackgroundTrack' });
export type BackgroundTrackWire = z.infer<typeof backgroundTrackWire>;

export const backgroundTrackToWire = (track: BackgroundTrackView): BackgroundTrackWire => ({
  id: track.id,
  name: track.name,
  project: track.project,
  url: track.url,
  volume: track.volume,
  duration: track.duration,
  created: track.created,
  updated: track.updated,
});
