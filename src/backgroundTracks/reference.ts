// `background_track: {track: {id}}` in a content or project body names a track that project may use; anything else is a 422.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { invalid } from '../shared/errors.ts';
import { findBackgroundTrack, ORGANIZATION_SCOPE } from './readModel.ts';

/**
 * Checks the track a `background_track` body names, as video settings templates are checked: another
 * organization's track is as good as missing, and a track of one project serves that project only (`projectId`
 * null: a project being created, which only the organization's own tracks serve). Bodies not shaped like one are
 * left to the body's schema, so a malformed body answers that schema's errors rather than this check's.
 */
export async function checkBackgroundTrackReference(read: ReadStore, organizationId: number, projectId: number | null, body: unknown, location = 'background_track.track.id') {
  const track = typeof body === 'object' && body !== null ? (body as { track?: unknown }).track : undefined;
  const id = typeof track === 'object' && track !== null ? (track as { id?: unknown }).id : undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return;
  const found = await findBackgroundTrack(read, organizationId, id);
  if (!found) throw invalid([{ location, message: 'names no background track of this organization' }]);
  if (found.scope !== ORGANIZATION_SCOPE && found.scope !== projectId) throw invalid([{ location, message: "names a background track of another project" }]);
}

/** The `background_track` of a body, when the body is an object. */
export const backgroundTrackOf = (body: unknown) => (typeof body === 'object' && body !== null ? (body as { background_track?: unknown }).background_track : undefined);
