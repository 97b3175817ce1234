import { describe, expect, it } from 'vitest';
import { contentDecider } from '../../src/content/decider.ts';
import type { ContentEvent, MediaFileRecord } from '../../src/content/events.ts';

const now = '2026-03-01T10:00:00.000Z';
const media = (id: number): MediaFileRecord => ({ id, content_type: 'application/x-mpegURL', url: `/media/c/1/article.m3u8`, duration: 0, variant: 'article' });
const created: ContentEvent = {
  type: 'ContentCreated',
  data: { contentId: 'c', projectId: 1, contentType: 'auto_segment', fields: { body: '<p>Hello</p>' }, previewToken: 't', created: now },
};
const started = (generation: number): ContentEvent => ({ type: 'ContentProcessingStarted', data: { generation, started: now } });
const streamed = (generation: number, id: number): ContentEvent => ({ type: 'ContentStreamStarted', data: { generation, media: media(id), started: now } });
const processed: ContentEvent = {
  type: 'ContentProcessed',
  data: { generation: 1, media: { audio: [], video: [], segments: [], summarySegments: [], duration: 1000 }, published: false, processed: now },
};
const regenerated: ContentEvent = { type: 'ContentRegenerationRequested', data: { generation: 2, requested: now } };

const decide = (given: ContentEvent[], generation: number, id = 7) =>
  contentDecider.decide({ kind: 'StartStream', generation, media: media(id), now }, given.reduce(contentDecider.evolve, contentDecider.initialState));

describe('announcing the growing playlist (StartStream)', () => {
  it.each([
    ['while the generation is processing', [created, started(1)], 1, [streamed(1, 7)]],
    ['not twice in one generation (a retried attempt)', [created, started(1), streamed(1, 5)], 1, []],
    ['not before processing starts', [created], 1, []],
    ['not after the generation completed', [created, started(1), processed], 1, []],
    ['not for a superseded generation', [created, started(1), regenerated, started(2)], 1, []],
    ['again for the next generation', [created, started(1), streamed(1, 5), processed, regenerated, started(2)], 2, [streamed(2, 7)]],
  ] as const)('%s', (_, given, generation, expected) => {
    expect(decide([...given], generation)).toEqual(expected);
  });

  it('keeps the announced entry in the state, for the completion to reuse its id', () => {
    const state = [created, started(1), streamed(1, 5)].reduce(contentDecider.evolve, contentDecider.initialState);
    expect(state.liveAudio).toEqual(media(5));
    expect(contentDecider.evolve(state, regenerated).liveAudio).toBeNull();
  });
});
