// Summarization settings as a read model, one document per project, guarded by stream revision so replays are idempotent.
import { SUMMARIZATION_SETTINGS_STREAM_PREFIX, type SummarizationSettingsEvent } from '../src/summaries/events.ts';
import { SUMMARIZATION_SETTINGS, summarizationSettingsIndexes, type SummarizationSettingsView } from '../src/summaries/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const summarizationSettingsProjection: Projection = {
  name: 'summarizationSettings',
  streamPrefix: SUMMARIZATION_SETTINGS_STREAM_PREFIX,
  collections: { [SUMMARIZATION_SETTINGS]: summarizationSettingsIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const documents = read.collection<SummarizationSettingsView>(SUMMARIZATION_SETTINGS);
    const event = recorded as unknown as SummarizationSettingsEvent;
    const _id = recorded.stream.slice(SUMMARIZATION_SETTINGS_STREAM_PREFIX.length);
    const current = await documents.findOne({ _id });
    if (current && recorded.revision <= current.revision) return;
    const { projectId, changes, updated } = event.data;
    await documents.put({ _id, revision: recorded.revision, projectId, settings: { ...current?.settings, ...changes }, updated });
  },
};
