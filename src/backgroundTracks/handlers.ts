// Background track commands through the resource kit, with the organization as the owner; the audio behind a new
// URL is probed before anything is appended, so a stored track always has a real duration.
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

export function createBackgroundTrackHandlers(store: EventStore, read: ReadStore, limits: AudioFetchLimits) {
  return projectResourceHandlers(store, {
    sequence: 'background-track',
    stream: backgroundTrackStream,
    decider: backgroundTrackDecider,
    schemas: backgroundTrackSchemas,
    async prepare(organizationId, fields: Partial<BackgroundTrackFields>) {
      const projectId = fields.project?.id;
      if (projectId !== undefined && (await findProject(read, projectId))?.organizationId !== organizationId) {
        throw invalid([{ location: 'project.id', message: 'names no project of this organization' }]);
      }
      return fields.url === undefined ? {} : { duration: await probeTrackSeconds(fields.url, limits) };
    },
    commands: {
      create: (trackId, organizationId, fields: BackgroundTrackFields, now) =>
        ({ kind: 'CreateBackgroundTrack', trackId, organizationId, fields: { ...fields, project: fields.project ?? null }, now }) as const,
      update: (organizationId, changes, now) => ({ kind: 'UpdateBackgroundTrack', organizationId, changes, now }) as const,
      remove: (organizationId, now) => ({ kind: 'DeleteBackgroundTrack', organizationId, now }) as const,
    },
  });
}
