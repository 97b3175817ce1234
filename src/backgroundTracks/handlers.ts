// Background track commands through the resource kit, with the organization as the owner; the audio behind a new
// URL, or an uploaded file, is probed before anything is appended, so a stored track always has a real duration.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { AudioFetchLimits } from '../media/fetchAudio.ts';
import { findProject } from '../projects/readModel.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { invalid } from '../shared/errors.ts';
import { backgroundTrackSchemas } from './commands.ts';
import { organizationResourceWrites } from '../shared/crud/organizationDecider.ts';
import { backgroundTrackLifecycle, backgroundTrackStream, type BackgroundTrackEvent, type BackgroundTrackFields } from './events.ts';
import { probeTrackSeconds } from './probe.ts';

/** An uploaded track's audio, already kept and measured: `file` under the media folder, `duration` in seconds. */
export interface UploadedAudio {
  file: string;
  duration: number;
}

const writes = organizationResourceWrites<BackgroundTrackFields, BackgroundTrackEvent>(backgroundTrackLifecycle, {
  created: (fields) => ({ ...fields, project: fields.project ?? null }),
});

export function createBackgroundTrackHandlers(store: EventStore, read: ReadStore, limits: AudioFetchLimits) {
  // A new URL replaces an upload: from then on the track's audio is fetched from it.
  const fetched = async (fields: Partial<BackgroundTrackFields>) => (fields.url === undefined ? {} : { duration: await probeTrackSeconds(fields.url, limits), file: null });
  const handlers = (audio: (fields: Partial<BackgroundTrackFields>) => Promise<Partial<BackgroundTrackFields>>) =>
    projectResourceHandlers(store, {
      sequence: 'background-track',
      stream: backgroundTrackStream,
      schemas: backgroundTrackSchemas,
      ...writes,
      async prepare(organizationId, fields: Partial<BackgroundTrackFields>) {
        const projectId = fields.project?.id;
        if (projectId !== undefined && (await findProject(read, projectId))?.organizationId !== organizationId) {
          throw invalid([{ location: 'project.id', message: 'names no project of this organization' }]);
        }
        return audio(fields);
      },
    });
  return {
    ...handlers(fetched),
    /** A track whose `url` serves an upload: its audio is the file, not fetched. */
    createUploaded: (organizationId: number, body: unknown, upload: UploadedAudio, now: Date) => handlers(async () => upload).create(organizationId, body, now),
  };
}
