// Projects read model: one document per project, guarded by stream revision so replays are idempotent.
import type { ProjectEvent } from '../src/projects/events.ts';
import {
  PROJECTS,
  projectDefaults,
  projectIndexes,
  settingsDefaults,
  withSettingsChanged,
  type ProjectView,
} from '../src/projects/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const projectsProjection: Projection = {
  name: 'projects',
  streamPrefix: 'project-',
  collections: { [PROJECTS]: projectIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const projects = read.collection<ProjectView>(PROJECTS);
    const event = recorded as unknown as ProjectEvent;
    const _id = recorded.stream.slice('project-'.length);
    if (event.type === 'ProjectCreated') {
      const { projectId, organizationId, fields, created } = event.data;
      if (await projects.findOne({ _id })) return;
      const view = { ...projectDefaults, ...fields, name: fields.name ?? '' };
      const settings = { playerSettings: settingsDefaults.player, videoSettings: settingsDefaults.video, embedSettings: settingsDefaults.embed, extractionSettings: settingsDefaults.extraction };
      await projects.put({ ...view, ...settings, _id, revision: recorded.revision, id: projectId, organizationId, created, updated: created });
      return;
    }
    const project = await projects.findOne({ _id });
    if (!project || recorded.revision <= project.revision) return;
    const revision = recorded.revision;
    switch (event.type) {
      case 'ProjectUpdated':
        await projects.put({ ...project, ...event.data.changes, revision, updated: event.data.updated });
        return;
      case 'PlayerSettingsUpdated':
        await projects.put({ ...withSettingsChanged(project, 'player', event.data.changes), revision });
        return;
      case 'VideoSettingsUpdated':
        await projects.put({ ...withSettingsChanged(project, 'video', event.data.changes), revision });
        return;
      case 'EmbedSettingsUpdated':
        await projects.put({ ...withSettingsChanged(project, 'embed', event.data.changes), revision });
        return;
      case 'ExtractionSettingsUpdated':
        await projects.put({ ...withSettingsChanged(project, 'extraction', event.data.changes), revision });
        return;
      case 'ProjectDeleted':
        await projects.deleteOne(_id);
        return;
    }
  },
};
