// Realistic synthetic player traffic, seeded (the same options give the same events): sessions of load → play →
// progress every 10 % with drop-off, over devices, variants, formats and access tiers, returning listeners, and ads
// with their loads and a few clicks. Used by the tests, the benchmarks and the dashboard's screenshot.
//
//   npx tsx bench/traffic.ts --project 1 --content <uuid,uuid,...> [--ads 3,4] [--sessions 1000] [--days 30] [--seed 7] > events.ndjson
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

export interface TrafficOptions {
  projectId: number;
  contentIds: string[];
  adIds?: number[];
  /** Listening sessions (each is one page view: a load, then maybe a listen). */
  sessions: number;
  /** The sessions begin between these instants. */
  from: Date;
  to: Date;
  seed?: number;
}

/** An event of the player's shape with the moment it happened, as `analytics import` reads it. */
export type TrafficEvent = Record<string, unknown> & { created_at: string };

/** mulberry32: small, fast, and the same sequence for the same seed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(next: () => number, weighted: [T, number][]): T => {
  let left = next() * weighted.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [value, weight] of weighted) if ((left -= weight) < 0) return value;
  return weighted.at(-1)![0];
};

/** A UUID v4 from the generator, so that runs repeat. */
function uuid(next: () => number): string {
  const word = () => Math.floor(next() * 0x1_0000_0000).toString(16).padStart(8, '0');
  const [a, b, c, d] = [word(), word(), word(), word()];
  return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${'89ab'[Math.floor(next() * 4)]}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

const DEVICES: [string, number][] = [['desktop', 42], ['phone', 38], ['tablet', 8], ['ios', 7], ['android', 5]];
/** More listening in the morning and the evening (weights by local hour, UTC here). */
const HOURS: [number, number][] = [1, 1, 1, 1, 1, 2, 4, 7, 9, 8, 6, 5, 5, 5, 5, 5, 6, 7, 8, 8, 7, 5, 3, 2].map((weight, hour) => [hour, weight]);

export function* generateTraffic(options: TrafficOptions): Generator<TrafficEvent> {
  const next = random(options.seed ?? 1);
  const listeners = Array.from({ length: Math.max(1, Math.round(options.sessions / 3)) }, () => uuid(next));
  const span = options.to.getTime() - options.from.getTime();
  const days = Math.max(1, Math.ceil(span / 86_400_000));
  for (let session = 0; session < options.sessions; session += 1) {
    // Popular items get most sessions (Zipf-like: the k-th item about 1/k as many as the first).
    const content = options.contentIds[Math.min(options.contentIds.length - 1, Math.floor((options.contentIds.length + 1) ** next()) - 1)]!;
    const device = pick(next, DEVICES);
    const variant = next() < 0.15 ? 'summary' : 'article';
    const format = next() < 0.1 ? 'video' : 'audio';
    const tier = next() < 0.2 ? 'premium' : null;
    // Returning listeners: a few readers come back often; some browsers keep no storage.
    const listener = next() < 0.1 ? null : listeners[Math.floor(listeners.length * next() ** 2)]!;
    const sessionId = uuid(next);
    const day = Math.floor(next() * days);
    const hour = pick(next, HOURS);
    let at = Math.min(options.to.getTime() - 1, options.from.getTime() + day * 86_400_000 + hour * 3_600_000 + Math.floor(next() * 3_600_000));
    const duration = 60 + Math.floor(next() * 540);
    const base = {
      device_type: device,
      media_variant: variant,
      access_tier: tier,
      project_id: options.projectId,
      content_id: content,
      source_id: null,
      analytics_id: null,
      media_id: null,
      media_format: format,
      local_storage_id: listener,
      listen_session_id: sessionId,
      session_created_at: at,
      speed: 1,
      segment_playback_enabled: true,
      location: `https://news.example.com/${content.slice(0, 8)}`,
      referrer: '',
      player_version: '1',
      player_npm_version: '0.2.3',
    };
    const event = (fields: Record<string, unknown>): TrafficEvent => ({ ...base, media_type: 'content', ad_id: null, duration, listen_length_seconds: 0, listen_length_percent: 0, ...fields, created_at: new Date(at).toISOString() });
    yield event({ event_type: 'load' });
    if (options.adIds && options.adIds.length > 0 && next() < 0.3) {
      const ad = options.adIds[Math.floor(next() * options.adIds.length)]!;
      yield event({ event_type: 'load', media_type: 'ad', ad_id: ad, duration: 15 });
      if (next() < 0.04) {
        at += 4_000;
        yield event({ event_type: 'ad_link_click', media_type: 'ad', ad_id: ad, duration: 15 });
      }
    }
    if (next() > 0.4) continue;
    at += 2_000 + Math.floor(next() * 20_000);
    yield event({ event_type: 'play' });
    for (let step = 10; step <= 100; step += 10) {
      if (next() > 0.86) break;
      at += (duration * 1000) / 10;
      yield event({ event_type: 'play_progress', listen_length_percent: step, listen_length_seconds: Math.round((duration * step) / 10) / 10 });
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      project: { type: 'string', default: '1' },
      content: { type: 'string' },
      ads: { type: 'string' },
      sessions: { type: 'string', default: '1000' },
      days: { type: 'string', default: '30' },
      seed: { type: 'string', default: '1' },
    },
  });
  if (!values.content) {
    console.error('Usage: npx tsx bench/traffic.ts --project 1 --content <uuid,uuid,...> [--ads 3,4] [--sessions 1000] [--days 30] [--seed 7] > events.ndjson');
    process.exit(2);
  }
  const to = new Date();
  const lines = generateTraffic({
    projectId: Number(values.project),
    contentIds: values.content.split(','),
    adIds: values.ads ? values.ads.split(',').map(Number) : [],
    sessions: Number(values.sessions),
    from: new Date(to.getTime() - Number(values.days) * 86_400_000),
    to,
    seed: Number(values.seed),
  });
  let buffer = '';
  for (const line of lines) {
    buffer += `${JSON.stringify(line)}\n`;
    if (buffer.length > 1 << 20) {
      if (!process.stdout.write(buffer)) await new Promise((resolve) => process.stdout.once('drain', resolve));
      buffer = '';
    }
  }
  process.stdout.write(buffer);
}
