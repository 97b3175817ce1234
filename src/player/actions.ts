// Player data: the published, processed items that identifiers name, with the project's settings; answers are cached.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.ts';
import type { ContentItemView } from '../content/readModel.ts';
import { findProject, settingsOf, type ProjectView } from '../projects/readModel.ts';
import { AnswerCache, type Answer } from './cache.ts';
import type { Identifier, PlayerQuery } from './query.ts';
import { basisUnchanged, lookUp, type Basis, type Lookup } from './readModel.ts';
import { hasSummaryMedia, playerDataToWire, type MediaFormat } from './wire.ts';
import { adsExpired, loadPlayerAds, type AdsBasis } from '../ads/player.ts';
import type { AdView } from '../ads/readModel.ts';
import { accessible, accessTierBasis, playerAccessTier, type AccessTierBasis } from '../accessTiers/player.ts';
import type { AccessTierView } from '../accessTiers/readModel.ts';

export interface PlayerRequest {
  projectId: number;
  identifiers: Identifier[];
  query: PlayerQuery;
  baseUrl: string;
}

interface Loaded {
  project: ProjectView;
  /** Per identifier, the items it may name. */
  lookups: Lookup[];
  /** The project's ads running now, and what they were chosen from. */
  ads: AdView[];
  adsBasis: AdsBasis;
  accessTier: AccessTierView | null;
  accessTierBasis: AccessTierBasis | null;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compared as digests, so the time taken says nothing about the token. */
const previewAllowed = (item: ContentItemView, token: string | undefined) =>
  token !== undefined && timingSafeEqual(digest(token), digest(item.previewToken));

/** Public: processed, and published for the format asked (`video_published` for video players). */
const published = (item: ContentItemView, format: MediaFormat) =>
  item.status === 'processed' && (format === 'video' ? item.videoPublished : item.published) === true;

function initialFirst(items: ContentItemView[], query: PlayerQuery): ContentItemView[] {
  const { initial_content_id: contentId, initial_source_id: sourceId, initial_source_url: sourceUrl } = query;
  const index = items.findIndex(
    (item) =>
      (contentId !== undefined && (item._id === contentId.toLowerCase() || String(item.legacyId) === contentId)) ||
      (sourceId !== undefined && item.sourceId === sourceId) ||
      (sourceUrl !== undefined && item.sourceUrl === sourceUrl),
  );
  return index > 0 ? [items[index]!, ...items.slice(0, index), ...items.slice(index + 1)] : items;
}

/** A strong validator of the exact bytes sent. */
export const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

function render(loaded: Loaded | null, query: PlayerQuery, baseUrl: string): Answer {
  if (!loaded) return { found: false };
  const { project, lookups } = loaded;
  const embed = settingsOf(project, 'embed');
  if (!embed.enabled) return { found: false };
  const format = query.media_format ?? embed.defaultMediaFormat;
  const shown = (item: ContentItemView) =>
    (previewAllowed(item, query.preview_token) || published(item, format)) &&
    (!query.summary || hasSummaryMedia(item)) &&
    accessible(item.accessTiers, loaded.accessTier);
  const seen = new Set<string>();
  const items = lookups
    .flatMap((lookup) => lookup.items.filter(shown).slice(0, lookup.take))
    .filter((item) => !seen.has(item._id) && Boolean(seen.add(item._id)));
  if (items.length === 0) return { found: false };
  const options = { words: query.words, summary: query.summary, videoSize: query.video_size, accessTier: query.access_tier ?? null, baseUrl };
  const playlist = lookups.find((lookup) => lookup.playlist)?.playlist ?? null;
  const ordered = initialFirst(items, query);
  // The first item decides for the whole answer: players start with it, and its ads play around it.
  const ads = ordered[0]!.adsEnabled === false ? [] : loaded.ads;
  const body = JSON.stringify(playerDataToWire(project, ordered, options, playlist, ads));
  return { found: true, body, etag: etagOf(body), allowedDomains: embed.allowedDomains };
}

const basisOf = (loaded: Loaded | null): Basis => ({
  projectRevision: loaded?.project.revision ?? null,
  lookups: (loaded?.lookups ?? []).map(({ filter, items, playlistCheck }) => ({
    filter,
    items: items.map((item) => [item._id, item.revision] as [string, number]),
    playlistCheck,
  })),
  ads: loaded?.adsBasis ?? null,
  accessTier: loaded?.accessTierBasis ?? null,
});

export function playerActions({ read, runner, now }: Pick<Services, 'read' | 'runner' | 'now'>) {
  const cache = new AnswerCache();

  const load = async (projectId: number, identifiers: Identifier[], query: PlayerQuery, at: number): Promise<Loaded | null> => {
    const project = await findProject(read, projectId);
    if (!project) return null;
    const accessTier = await playerAccessTier(read, projectId, query.access_tier);
    const [lookups, ads] = await Promise.all([Promise.all(identifiers.map((identifier) => lookUp(read, projectId, identifier))), loadPlayerAds(read, projectId, at)]);
    return { project, lookups, ads: ads.running, adsBasis: ads.basis, accessTier, accessTierBasis: accessTierBasis(accessTier, query.access_tier) };
  };

  return {
    /** The answer for a request; `found: false` when the project or every item is missing or hidden. */
    async answer(request: PlayerRequest): Promise<Answer> {
      const { projectId, identifiers, query, baseUrl } = request;
      const key = JSON.stringify([projectId, identifiers, query, baseUrl]);
      // Read before any document, so an answer is never older than the position it is kept with.
      const position = runner.position;
      const at = now().getTime();
      const cached = cache.get(key);
      if (cached && !adsExpired(cached.basis.ads, at) && (cached.position === position || (await basisUnchanged(read, projectId, cached.basis)))) {
        if (cached.position !== position) cache.set(key, position, cached.basis, cached.answer);
        return cached.answer;
      }
      const loaded = await load(projectId, identifiers, query, at);
      const answer = render(loaded, query, baseUrl);
      cache.set(key, position, basisOf(loaded), answer);
      return answer;
    },
  };
}
