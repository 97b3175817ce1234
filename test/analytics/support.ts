// Player events as the real web player posts them (client facts, "Listening analytics"), and waiting for figures.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestServer } from '../support/server.ts';

export type PlayerEventBody = Record<string, unknown>;

/** One event of the player's exact shape; `undefined` fields become null, as the player's JSON replacer makes them. */
export function playerEvent(fields: PlayerEventBody): PlayerEventBody {
  return {
    event_type: 'load',
    device_type: 'desktop',
    media_type: 'content',
    media_variant: 'article',
    access_tier: null,
    project_id: 1,
    content_id: null,
    source_id: null,
    analytics_id: null,
    ad_id: null,
    media_id: null,
    media_format: 'audio',
    local_storage_id: randomUUID(),
    listen_session_id: randomUUID(),
    session_created_at: Date.now(),
    duration: 60,
    listen_length_seconds: 0,
    listen_length_percent: 0,
    speed: 1,
    segment_playback_enabled: true,
    location: 'https://news.example.com/story',
    referrer: '',
    player_version: '1',
    player_npm_version: '0.2.3',
    ...fields,
  };
}

/** A listen as the player reports it: load, play, then a progress event at each 10 % reached, up to `percent`. */
export function listen(fields: PlayerEventBody, percent: number, duration = 60): PlayerEventBody[] {
  const session = { listen_session_id: randomUUID(), duration, ...fields };
  const events = [playerEvent({ ...session, event_type: 'load' }), playerEvent({ ...session, event_type: 'play' })];
  for (let step = 10; step <= percent; step += 10) {
    events.push(playerEvent({ ...session, event_type: 'play_progress', listen_length_percent: step, listen_length_seconds: (duration * step) / 100 }));
  }
  return events;
}

export async function post(server: TestServer, events: PlayerEventBody | PlayerEventBody[], headers: Record<string, string> = {}) {
  return server.request('POST', '/v1/analytics/events', { body: events, key: null, headers });
}

/**
 * Polls a GET every `pollMs` until `ready` holds of its answer (the analytics projection follows the log), then returns
 * the answer.
 */
export async function eventually<T = any>(server: TestServer, path: string, ready: (body: T) => boolean, timeoutMs = 20_000, pollMs = 100): Promise<T> {
  const started = Date.now();
  for (;;) {
    const reply = await server.request<T>('GET', path);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    if (ready(reply.body)) return reply.body;
    if (Date.now() - started > timeoutMs) return reply.body;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

export const byDevice = (total: number, devices: Partial<Record<'desktop' | 'tablet' | 'mobile_web' | 'ios' | 'android', number>> = {}) => ({
  total,
  desktop: 0,
  tablet: 0,
  mobile_web: 0,
  ios: 0,
  android: 0,
  ...devices,
});
