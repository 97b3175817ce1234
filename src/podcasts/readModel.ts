// The podcast settings read model (the fields a project set, defaults applied on reading) and the items its feeds carry.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import { CONTENT_ITEMS, type ContentItemView } from '../content/readModel.ts';
import type { ProjectView } from '../projects/readModel.ts';
import type { PodcastSettingsFields } from './events.ts';

export const PODCAST_SETTINGS = 'podcastSettings';

export type PodcastSettingsView = {
  _id: string;
  revision: number;
  projectId: number;
  settings: Partial<PodcastSettingsFields>;
  updated: string;
};

export const podcastSettingsIndexes: IndexSpec[] = [];

/** Every setting, those the project left unset taken from the project. */
export type PodcastSettings = PodcastSettingsFields & { updated: string | null };

export async function podcastSettingsOf(read: ReadStore, project: ProjectView): Promise<PodcastSettings> {
  const stored = await read.collection<PodcastSettingsView>(PODCAST_SETTINGS).findOne({ _id: String(project.id) });
  const defaults: PodcastSettingsFields = {
    title: project.name,
    description: project.name,
    author: project.name,
    owner: { name: project.name, email: null },
    imageUrl: null,
    language: project.language,
    categories: [],
    explicit: false,
    type: 'episodic',
    copyright: null,
    link: null,
    enabled: true,
  };
  return { ...defaults, ...stored?.settings, updated: stored?.updated ?? null };
}

/** Most episodes a feed carries: directories read the newest ones, and the feed stays small. */
export const MAX_EPISODES = 300;

/** The project's processed items published for the format, newest first. */
export const publishedItems = (read: ReadStore, projectId: number, format: 'audio' | 'video') =>
  read
    .collection<ContentItemView>(CONTENT_ITEMS)
    .find(
      { projectId, status: 'processed', [format === 'video' ? 'videoPublished' : 'published']: true },
      { sort: { created: -1, legacyId: -1 }, limit: MAX_EPISODES },
    );
