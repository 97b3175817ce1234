// What a narration is produced with besides its voices: the background track under it, and the intro and outro
// around it (docs/audio-production.md), read from the item's, its project's and the track's streams.
import path from 'node:path';
import type { EventStore, RecordedEvent } from '../infrastructure/eventStore/port.ts';
import { backgroundTrackStream, type BackgroundTrackEvent, type BackgroundTrackFields } from '../backgroundTracks/events.ts';
import type { ProjectEvent } from '../projects/events.ts';
import { applySettingsChanges } from '../projects/readModel.ts';
import { defaultPlayerSettings } from '../player/settings.ts';
import { assemble, type Assembly } from '../media/assemble.ts';
import { decode, fetchAudio, type AudioFetchLimits } from '../media/fetchAudio.ts';
import { loadMusicBed, type MusicBed } from '../media/musicBed.ts';
import type { FetchedFiles } from '../media/fetches.ts';
import type { Limit } from '../media/limit.ts';
import type { ContentSource, ProjectSettings } from './source.ts';

export interface Production {
  /** The track to mix under the speech, if any: where its audio is (`file`: uploaded, under the media folder), and at what volume (0–100). */
  track: { url: string; file: string | null; volume: number } | null;
  /** Player settings' intro and outro, when `intro_outro_enabled`: the article is also made with them around it. */
  intro: string | null;
  outro: string | null;
}

/**
 * The item's `background_track` decides when it has one: `enabled: false` means no music, and a track it does not
 * name is the project's. Without one, the project's `background_track` applies when enabled. A track that is gone,
 * or that the item's project cannot see (another organization's, another project's), is no music, as on the API.
 */
export async function productionOf(events: EventStore, source: ContentSource, project: ProjectSettings, projectEvents: RecordedEvent[]): Promise<Production> {
  const own = source.fields.backgroundTrack;
  const projectTrack = project.backgroundTrack.track?.id;
  const trackId = own ? (own.enabled ? (own.track?.id ?? projectTrack) : undefined) : project.backgroundTrack.enabled ? projectTrack : undefined;
  const created = (projectEvents as unknown as ProjectEvent[]).find((event) => event.type === 'ProjectCreated');
  const organizationId = created?.type === 'ProjectCreated' ? created.data.organizationId : undefined;
  const track = trackId ? await trackOf(events, trackId) : null;
  const usable = track && track.organizationId === organizationId && (track.fields.project === null || track.fields.project.id === source.projectId);

  let player = defaultPlayerSettings;
  for (const event of projectEvents as unknown as ProjectEvent[]) {
    if (event.type === 'PlayerSettingsUpdated') player = applySettingsChanges(player, event.data.changes);
  }
  const bookends = player.introOutroEnabled;
  return {
    track: usable ? { url: track.fields.url, file: track.fields.file ?? null, volume: track.fields.volume } : null,
    intro: bookends ? player.introUrl : null,
    outro: bookends ? player.outroUrl : null,
  };
}

async function trackOf(events: EventStore, trackId: number): Promise<{ organizationId: number; fields: BackgroundTrackFields } | null> {
  let track: { organizationId: number; fields: BackgroundTrackFields } | null = null;
  for (const event of (await events.readStream(backgroundTrackStream(trackId))) as unknown as BackgroundTrackEvent[]) {
    if (event.type === 'BackgroundTrackCreated') track = { organizationId: event.data.organizationId, fields: event.data.fields };
    if (event.type === 'BackgroundTrackUpdated' && track) track = { ...track, fields: { ...track.fields, ...event.data.changes } };
    if (event.type === 'BackgroundTrackDeleted') track = null;
  }
  return track;
}

interface AudioDeps {
  sampleRate: number;
  audioLimits: AudioFetchLimits;
  /** The item's bound on fetches at once, within the process's (src/media/fetches.ts). */
  fetchLimit?: Limit;
  /** The item's downloads, kept for a retried try (src/media/fetches.ts). */
  fetched?: FetchedFiles;
}

const bounded = <T>(deps: AudioDeps, task: () => Promise<T>) => (deps.fetchLimit ? deps.fetchLimit(task) : task());

/**
 * The track's audio made ready to mix: an uploaded file decoded where it is kept, other audio fetched through the
 * guarded fetcher like a pre-recorded segment.
 */
export async function loadMusic(track: NonNullable<Production['track']>, dir: string, deps: AudioDeps & { mediaDir: string }): Promise<MusicBed | null> {
  const wavPath = path.join(dir, 'music.wav');
  await bounded(deps, async () => {
    if (track.file) await decode(path.join(deps.mediaDir, track.file), wavPath, deps.sampleRate, deps.audioLimits.timeoutMs, track.url, deps.audioLimits.maxDurationMs);
    else await fetchAudio(track.url, wavPath, { ...deps.audioLimits, sampleRate: deps.sampleRate, fetched: deps.fetched });
  });
  // The track stays in its file: measured by ffmpeg, and read a part at a time as it is mixed (src/media/musicBed.ts).
  return loadMusicBed(wavPath, deps.sampleRate, track.volume);
}

/** The intro's and the outro's audio, fetched through the guarded fetcher like pre-recorded segments: WAV paths. */
export async function fetchIntroOutro(production: Production, dir: string, deps: AudioDeps): Promise<{ intro?: string; outro?: string }> {
  const fetchPart = async (url: string | null, name: string) =>
    url ? (await bounded(deps, () => fetchAudio(url, path.join(dir, `${name}.wav`), { ...deps.audioLimits, sampleRate: deps.sampleRate, fetched: deps.fetched }))).wavPath : undefined;
  const [intro, outro] = await Promise.all([fetchPart(production.intro, 'intro'), fetchPart(production.outro, 'outro')]);
  return { intro, outro };
}

/**
 * `audio_with_intro_outro`: the intro, the narration exactly as it was encoded (its timeline's WAV copy) and the
 * outro, with no gap, levelled and encoded like any narration (mp3 and HLS).
 */
export async function renderWithIntroOutro(timelineWavPath: string, introOutro: { intro?: string; outro?: string }, dir: string): Promise<Assembly> {
  const parts = [introOutro.intro, timelineWavPath, introOutro.outro].filter((wavPath) => wavPath !== undefined).map((wavPath) => ({ wavPath, pauseAfterMs: 0 }));
  return assemble(parts, dir, 'article-intro-outro');
}
