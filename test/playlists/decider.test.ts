import { describe, expect, it } from 'vitest';
import { playlistDecider, type PlaylistCommand } from '../../src/playlists/decider.ts';
import type { PlaylistEvent, PlaylistFields } from '../../src/playlists/events.ts';
import { AppError } from '../../src/shared/errors.ts';

/** Given these events, when this command: the events decided, or the kind of the error. */
function decide(given: PlaylistEvent[], when: PlaylistCommand): PlaylistEvent[] | string {
  const decision = playlistDecider.decide(when, given.reduce(playlistDecider.evolve, playlistDecider.initialState));
  return decision instanceof AppError ? decision.kind : decision;
}

const now = '2026-03-01T10:00:00.000Z';
const fields: PlaylistFields = {
  title: 'Morning',
  type: 'manual',
  contentIds: ['6f0c5c1e-0000-4000-8000-000000000001'],
  tags: [],
  sourceUrlPrefix: null,
  authors: [],
  imageUrl: null,
  contentLimit: 10,
};
const created: PlaylistEvent = { type: 'PlaylistCreated', data: { playlistId: 3, projectId: 1, fields, created: now } };
const renamed: PlaylistEvent = { type: 'PlaylistUpdated', data: { changes: { title: 'Evening' }, updated: now } };
const toAuto: PlaylistEvent = { type: 'PlaylistUpdated', data: { changes: { type: 'auto', tags: ['news'] }, updated: now } };
const deleted: PlaylistEvent = { type: 'PlaylistDeleted', data: { deleted: now } };

describe('playlist decider', () => {
  const cases: [string, PlaylistEvent[], PlaylistCommand, PlaylistEvent[] | string][] = [
    ['creates a new playlist', [], { kind: 'CreatePlaylist', playlistId: 3, projectId: 1, fields, now }, [created]],
    ['never creates twice under one id', [created], { kind: 'CreatePlaylist', playlistId: 3, projectId: 1, fields, now }, 'Conflict'],
    ['refuses an auto playlist without tags', [], { kind: 'CreatePlaylist', playlistId: 3, projectId: 1, fields: { ...fields, type: 'auto' }, now }, 'Invalid'],
    ['updates a playlist of the project', [created], { kind: 'UpdatePlaylist', projectId: 1, changes: { title: 'Evening' }, now }, [renamed]],
    ['turns a playlist auto when tags come with it', [created], { kind: 'UpdatePlaylist', projectId: 1, changes: { type: 'auto', tags: ['news'] }, now }, [toAuto]],
    ['refuses turning auto without tags', [created], { kind: 'UpdatePlaylist', projectId: 1, changes: { type: 'auto' }, now }, 'Invalid'],
    ['refuses removing the last tag of an auto playlist', [created, toAuto], { kind: 'UpdatePlaylist', projectId: 1, changes: { tags: [] }, now }, 'Invalid'],
    ['hides a playlist of another project', [created], { kind: 'UpdatePlaylist', projectId: 2, changes: {}, now }, 'NotFound'],
    ['does not update a deleted playlist', [created, deleted], { kind: 'UpdatePlaylist', projectId: 1, changes: {}, now }, 'NotFound'],
    ['deletes a playlist of the project', [created], { kind: 'DeletePlaylist', projectId: 1, now }, [deleted]],
    ['deletes once', [created, deleted], { kind: 'DeletePlaylist', projectId: 1, now }, 'NotFound'],
    ['does not delete for another project', [created], { kind: 'DeletePlaylist', projectId: 2, now }, 'NotFound'],
  ];
  it.each(cases)('%s', (_, given, when, then) => {
    expect(decide(given, when)).toEqual(then);
  });
});
