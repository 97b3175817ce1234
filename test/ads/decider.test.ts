import { describe, expect, it } from 'vitest';
import { adDecider, type AdCommand } from '../../src/ads/decider.ts';
import type { AdEvent, AdFields } from '../../src/ads/events.ts';
import { AppError } from '../../src/shared/errors.ts';

/** Given these events, when this command: the events decided, or the kind and locations of the error. */
function decide(given: AdEvent[], when: AdCommand): AdEvent[] | string {
  const decision = adDecider.decide(when, given.reduce(adDecider.evolve, adDecider.initialState));
  return decision instanceof AppError ? [decision.kind, ...decision.errors.map((error) => error.location)].join(' ') : decision;
}

const now = '2026-03-01T10:00:00.000Z';
const fields: AdFields = {
  type: 'custom',
  placement: 'pre-roll',
  title: 'Spring sale',
  vastUrl: null,
  mediaUrl: 'https://ads.example.com/spring.mp3',
  clickThroughUrl: null,
  imageUrl: null,
  theme: null,
  darkTheme: null,
  lightTheme: null,
  enabled: true,
  startsAt: null,
  endsAt: null,
};
const created: AdEvent = { type: 'AdCreated', data: { adId: 3, projectId: 1, fields, created: now } };
const deleted: AdEvent = { type: 'AdDeleted', data: { deleted: now } };
const update = (changes: Partial<AdFields>, projectId = 1): AdCommand => ({ kind: 'UpdateAd', projectId, changes, now });

describe('ad decider', () => {
  const cases: [string, AdEvent[], AdCommand, AdEvent[] | string][] = [
    ['creates a custom ad', [], { kind: 'CreateAd', adId: 3, projectId: 1, fields, now }, [created]],
    ['never creates twice under one id', [created], { kind: 'CreateAd', adId: 3, projectId: 1, fields, now }, 'Conflict'],
    ['needs a file for a custom ad', [], { kind: 'CreateAd', adId: 3, projectId: 1, fields: { ...fields, mediaUrl: null }, now }, 'Invalid media_url'],
    ['needs a VAST URL for a VAST ad', [], { kind: 'CreateAd', adId: 3, projectId: 1, fields: { ...fields, type: 'vast' }, now }, 'Invalid vast_url'],
    ['needs an end after the start', [], { kind: 'CreateAd', adId: 3, projectId: 1, fields: { ...fields, startsAt: now, endsAt: now }, now }, 'Invalid ends_at'],
    ['updates an ad of the project', [created], update({ enabled: false }), [{ type: 'AdUpdated', data: { changes: { enabled: false }, updated: now } }]],
    ['checks an update against the fields it leaves', [created], update({ type: 'vast' }), 'Invalid vast_url'],
    ['checks a new end against the stored start', [created, { type: 'AdUpdated', data: { changes: { startsAt: now }, updated: now } }], update({ endsAt: '2026-02-01T00:00:00.000Z' }), 'Invalid ends_at'],
    ['hides an ad of another project', [created], update({ enabled: false }, 2), 'NotFound'],
    ['does not update a deleted ad', [created, deleted], update({ enabled: false }), 'NotFound'],
    ['deletes once', [created, deleted], { kind: 'DeleteAd', projectId: 1, now }, 'NotFound'],
  ];
  it.each(cases)('%s', (_, given, when, then) => {
    expect(decide(given, when)).toEqual(then);
  });
});
