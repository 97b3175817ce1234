// Segments as clients read them: every segment carries a marker, and word times count from their segment's start.
import { createHash } from 'node:crypto';

type Segment = Record<string, unknown>;

/**
 * Applied when answering, not when generating, so items stored before this rule get the same answer: the stored
 * ContentProcessed facts keep what they recorded (markers only where given, word times from the start of the audio).
 */
export function segmentsForClients(itemId: string, segments: Segment[]): Segment[] {
  const seen = new Map<string, number>();
  return segments.map((segment) => {
    const identity = identityOf(segment);
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    const given = typeof segment.marker === 'string' && segment.marker.trim() !== '' ? segment.marker : null;
    const marked = { ...segment, marker: given ?? uuidV5(itemId, `${identity}\n${occurrence}`) };
    return Array.isArray(segment.words) ? { ...marked, words: relativeWords(segment, segment.words) } : marked;
  });
}

/**
 * What a segment says, not where it sits: a generated marker survives a regeneration of the same text, and
 * edits elsewhere in the article. The occurrence index tells repeated identical segments apart.
 */
function identityOf(segment: Segment): string {
  const said = segment.md5 ?? segment.text ?? segment.audio_url ?? segment.image_url ?? segment.video_url ?? '';
  return [segment.section ?? '', segment.content_type ?? 'text', String(said)].join('\n');
}

/**
 * The web player seeks to a word at segment start + word start. Stored times count from the start of the
 * audio; both are whole milliseconds, so the difference is exact, and the clamp only guards the player's
 * assumption that a word lies inside its segment.
 */
function relativeWords(segment: Segment, words: unknown[]): unknown[] {
  const start = typeof segment.start_time === 'number' ? segment.start_time : 0;
  const length = typeof segment.duration === 'number' ? segment.duration : Number.POSITIVE_INFINITY;
  return words.map((word) => {
    if (typeof word !== 'object' || word === null) return word;
    const timed = word as Segment;
    if (typeof timed.start_time !== 'number') return timed;
    const relative = Math.min(Math.max(timed.start_time - start, 0), length);
    const duration = typeof timed.duration === 'number' ? Math.min(timed.duration, length - relative) : timed.duration;
    return { ...timed, start_time: relative, duration };
  });
}

/** A name-based UUID (RFC 9562, version 5) in the item's id as namespace. */
export function uuidV5(namespace: string, name: string): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
