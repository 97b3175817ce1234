// Background track commands through the resource kit, with the organization as the owner; the audio behind a new
// URL, or an uploaded file, is probed before anything is appended, so a stored track always has a real duration.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { AudioFetchLimits } from '../media/fetchAudio.ts';
import { findProject } from '../projects/readModel.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { invalid } from '../shared/errors.ts';
import { backgroundTrackSchemas } from './commands.ts';
import { backgroundTrackDecider } from './decider.ts';
import { backgroundTrackStream, type BackgroundTrackFields } from './events.ts';
import { probeTrackSeconds } from './probe.ts';

/** An uploaded track's audio, already kept and measured: `file` under the media folder, `duration` in seconds. */
export interface UploadedAudio {
  file: string;
  duration: number;
}

export function createBackgroundTrackHandlers(store: EventStore, read: ReadStore, limits: AudioFetchLimits) {
  // A new URL replaces an upload: from then on the track's audio is fetched from it.
  const fetched = async (fields: Partial<BackgroundTrackFields>) => (fields.url === undefined ? {} : { duration: await probeTrackSeconds(fields.url, limits), file: null });
  const handlers = (audio: (fields: Partial<BackgroundTrackFields>) => Promise<Partial<BackgroundTrackFields>>) =>
    projectResourceHandlers(store, {
      sequence: 'background-track',
      stream: backgroundTrackStream,
      decider: backgroundTrackDecider,
      schemas: backgroundTrackSchemas,
      async prepare(organizationId, fields: Partial<BackgroundTrackFields>) {
        const projectId = fields.project?.id;
        if (projectId !== undefined && (await findProject(read, projectId))?.organizationId !== organizationId) {
          throw invalid([{ location: 'project.id', message: 'names no project of this organization' }]);
        }
        return audio(fields);
      },
      commands: {
        create: (trackId, organizationId, fields: BackgroundTrackFields, now) =>
          ({ kind: 'CreateBackgroundTrack', trackId, organizationId, fields: { ...fields, project: fields.project ?? null }, now }) as const,
        update: (organizationId, changes, now) => ({ kind: 'UpdateBackgroundTrack', organizationId, changes, now }) as const,
        remove: (organizationId, now) => ({ kind: 'DeleteBackgroundTrack', organizationId, now }) as const,
      },
    });
  return {
    ...handlers(fetched),
    /** A track whose `url` serves an upload: its audio is the file, not fetched. */
    createUploaded: (organizationId: number, body: unknown, upload: UploadedAudio, now: Date) => handlers(async () => upload).create(organizationId, body, now),
  };
}
