// The integration's pure rules as tables: settings changes, and what a delivery asks for.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cmsIntegrationDecider, type CmsIntegrationCommand } from '../../src/cmsIntegration/decider.ts';
import type { CmsIntegrationEvent } from '../../src/cmsIntegration/events.ts';
import { readGhostPost, readWordpressPost } from '../../src/cmsIntegration/posts.ts';
import { AppError } from '../../src/shared/errors.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/cms/${name}.json`, import.meta.url), 'utf8'));

const decide = (given: CmsIntegrationEvent[], when: CmsIntegrationCommand) =>
  cmsIntegrationDecider.decide(when, given.reduce(cmsIntegrationDecider.evolve, cmsIntegrationDecider.initialState));
const at = (minute: number) => `2026-03-01T10:0${minute}:00.000Z`;
const update = (changes: CmsIntegrationCommand['changes'], minute = 1): CmsIntegrationCommand => ({ kind: 'UpdateCmsSettings', projectId: 4, changes, now: at(minute) });
const updated = (changes: CmsIntegrationCommand['changes'], minute = 1): CmsIntegrationEvent => ({ type: 'CmsSettingsUpdated', data: { projectId: 4, changes, updated: at(minute) } });

describe('settings', () => {
  it.each([
    ['the first change, even of nothing, creates the integration', [], update({}), [updated({})]],
    ['only the fields that differ are recorded', [updated({ enabled: true })], update({ enabled: true, platform: 'ghost' }, 2), [updated({ platform: 'ghost' }, 2)]],
    ['a change to what is already there records nothing', [updated({ allowedDomains: ['a.example'] })], update({ allowedDomains: ['a.example'] }, 2), []],
    ['a default sent again records nothing once created', [updated({})], update({ publish: true }, 2), []],
  ] as const)('%s', (_, given, when, then) => {
    expect(decide([...given], when)).toEqual(then);
  });

  it('keeps when it was created apart from when it was last changed', () => {
    const state = [updated({ enabled: true }, 1), updated({ publish: false }, 2)].reduce(cmsIntegrationDecider.evolve, cmsIntegrationDecider.initialState);
    expect(state).toEqual({ settings: { enabled: true, platform: 'wordpress', publish: false, allowedDomains: [] }, created: at(1), updated: at(2) });
  });
});

describe('what a delivery asks for', () => {
  it.each([
    ['ghost-post.published', 'publish', '65f1a0c2e4b0a1b2c3d4e5f6'],
    ['ghost-post.published.edited', 'publish', '65f1a0c2e4b0a1b2c3d4e5f6'],
    ['ghost-post.scheduled', 'schedule', '65f1a0c2e4b0a1b2c3d4e5f7'],
    ['ghost-post.unpublished', 'unpublish', '65f1a0c2e4b0a1b2c3d4e5f6'],
    ['ghost-post.deleted', 'delete', '65f1a0c2e4b0a1b2c3d4e5f6'],
    ['ghost-post.added', 'ignore', '65f1a0c2e4b0a1b2c3d4e5f8'],
  ])('Ghost %s: %s', (name, kind, sourceId) => {
    expect(readGhostPost(fixture(name))).toMatchObject({ kind, sourceId });
  });

  it.each([
    ['wordpress-rest-publish', 'publish', '101'],
    ['wordpress-rest-edit', 'publish', '101'],
    ['wordpress-rest-future', 'schedule', '102'],
    ['wordpress-rest-draft', 'unpublish', '101'],
    ['wordpress-rest-deleted', 'delete', '101'],
    ['wp-webhooks-post-create', 'publish', '103'],
  ])('WordPress %s: %s', (name, kind, sourceId) => {
    expect(readWordpressPost(fixture(name))).toMatchObject({ kind, sourceId });
  });

  it('a scheduled Ghost post that goes live is a publish; a scheduled one taken back is an unpublish', () => {
    const live = fixture('ghost-post.scheduled');
    live.post.current.status = 'published';
    live.post.previous = { status: 'scheduled' };
    expect(readGhostPost(live).kind).toBe('publish');
    const back = fixture('ghost-post.scheduled');
    back.post.current.status = 'draft';
    back.post.previous = { status: 'scheduled' };
    expect(readGhostPost(back).kind).toBe('unpublish');
  });

  it('leaves out what a post lacks or carries in a form it cannot use, and reads an empty post as a page to extract', () => {
    const post = fixture('ghost-post.published');
    Object.assign(post.post.current, { html: null, feature_image: '/content/images/harbour.jpg', primary_author: null, tags: [] });
    expect(readGhostPost(post)).toEqual({
      kind: 'publish',
      sourceId: '65f1a0c2e4b0a1b2c3d4e5f6',
      fields: { title: 'Harbour line to reopen after council vote', source_url: 'http://127.0.0.1:2369/harbour-line-to-reopen/', publish_date: '2026-03-10T09:00:00.000Z', tags: [] },
    });
  });

  it('refuses a wrong type in a field it reads, naming the field', () => {
    const refusal = (read: () => unknown) => {
      try {
        read();
      } catch (error) {
        return error instanceof AppError ? [error.kind, ...error.errors.map((entry) => entry.location)] : error;
      }
      return 'accepted';
    };
    const post = fixture('ghost-post.published');
    expect(refusal(() => readGhostPost({ post: { current: { ...post.post.current, title: 7 } } }))).toEqual(['Invalid', 'title']);
    expect(refusal(() => readWordpressPost({ ...fixture('wordpress-rest-publish'), date_gmt: 'tomorrow' }))).toEqual(['Invalid', 'date_gmt']);
    expect(refusal(() => readWordpressPost(fixture('ghost-post.published')))).toEqual(['Invalid', 'post.ID', 'post.post_status']);
  });
});
