// Renders a podcast feed: RSS 2.0 with Apple's `itunes:` tags and Podcasting 2.0's `podcast:` tags.
import { createHash } from 'node:crypto';
import { categoryPath } from './categories.ts';
import type { PodcastSettings } from './readModel.ts';

export interface Episode {
  guid: string;
  title: string;
  description: string;
  published: Date;
  enclosure: { url: string; length: number; type: string };
  durationSeconds: number;
  imageUrl: string | null;
  transcriptUrl: string;
}

export interface Channel {
  feedUrl: string;
  /** Where the channel's link points when the settings name none. */
  siteUrl: string;
  settings: PodcastSettings;
  /** A playlist's feed is titled (and pictured) by the playlist. */
  title: string;
  imageUrl: string | null;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Escapes text and attribute values, and drops characters XML 1.0 cannot carry. */
export const escapeXml = (text: string) =>
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);

/** Podcasting 2.0's namespace for `podcast:guid`: a UUIDv5 of the feed URL without scheme and trailing slashes. */
const PODCAST_GUID_NAMESPACE = 'ead4c236-bf58-58c6-a2c6-a6b28d128cb6';

export function podcastGuid(feedUrl: string): string {
  const name = feedUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '');
  const namespace = Buffer.from(PODCAST_GUID_NAMESPACE.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** RSS's language codes are lower case with a hyphen: `en_US` → `en-us`. */
const rssLanguage = (code: string) => code.replace('_', '-').toLowerCase();

const element = (name: string, text: string) => `<${name}>${escapeXml(text)}</${name}>`;

function categoryElements(names: string[]): string[] {
  const byParent = new Map<string, string[]>();
  for (const [parent, sub] of names.map(categoryPath)) byParent.set(parent!, [...(byParent.get(parent!) ?? []), ...(sub ? [sub] : [])]);
  return [...byParent].map(([parent, subs]) =>
    subs.length === 0
      ? `<itunes:category text="${escapeXml(parent)}"/>`
      : `<itunes:category text="${escapeXml(parent)}">${subs.map((sub) => `<itunes:category text="${escapeXml(sub)}"/>`).join('')}</itunes:category>`,
  );
}

function itemXml(episode: Episode, explicit: boolean): string {
  const lines = [
    element('title', episode.title),
    `<guid isPermaLink="false">${escapeXml(episode.guid)}</guid>`,
    element('pubDate', episode.published.toUTCString()),
    `<enclosure url="${escapeXml(episode.enclosure.url)}" length="${episode.enclosure.length}" type="${escapeXml(episode.enclosure.type)}"/>`,
    element('description', episode.description),
    element('itunes:duration', String(episode.durationSeconds)),
    ...(episode.imageUrl ? [`<itunes:image href="${escapeXml(episode.imageUrl)}"/>`] : []),
    element('itunes:explicit', String(explicit)),
    `<podcast:transcript url="${escapeXml(episode.transcriptUrl)}" type="text/vtt"/>`,
  ];
  return `<item>${lines.join('')}</item>`;
}

export function renderFeed(channel: Channel, episodes: Episode[]): string {
  const { settings, feedUrl } = channel;
  const owner = [
    ...(settings.owner.name ? [element('itunes:name', settings.owner.name)] : []),
    ...(settings.owner.email ? [element('itunes:email', settings.owner.email)] : []),
  ];
  const lines = [
    element('title', channel.title),
    element('link', settings.link ?? channel.siteUrl),
    element('description', settings.description ?? channel.title),
    element('language', rssLanguage(settings.language ?? 'en')),
    `<atom:link href="${escapeXml(feedUrl)}" rel="self" type="application/rss+xml"/>`,
    ...(settings.copyright ? [element('copyright', settings.copyright)] : []),
    ...(settings.author ? [element('itunes:author', settings.author)] : []),
    ...(owner.length > 0 ? [`<itunes:owner>${owner.join('')}</itunes:owner>`] : []),
    ...(channel.imageUrl ? [`<itunes:image href="${escapeXml(channel.imageUrl)}"/>`] : []),
    ...categoryElements(settings.categories),
    element('itunes:explicit', String(settings.explicit)),
    element('itunes:type', settings.type),
    // `owner` is the email a hosting platform checks before a move; parsers such as Partytime read the tag only with it.
    settings.owner.email ? `<podcast:locked owner="${escapeXml(settings.owner.email)}">no</podcast:locked>` : element('podcast:locked', 'no'),
    element('podcast:guid', podcastGuid(feedUrl)),
    ...episodes.map((episode) => itemXml(episode, settings.explicit)),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    `<channel>${lines.join('\n')}</channel>`,
    '</rss>',
    '',
  ].join('\n');
}
