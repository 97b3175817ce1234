// Pronunciation rules as a read model: one document per rule of an organization's stream, guarded by the stream
// revision so replays are idempotent.
import type { PronunciationEvent } from '../src/pronunciation/events.ts';
import { PRONUNCIATION_STREAM_PREFIX } from '../src/pronunciation/events.ts';
import { PRONUNCIATION_RULES, ruleIndexes, type RuleView } from '../src/pronunciation/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const pronunciationRulesProjection: Projection = {
  name: 'pronunciationRules',
  streamPrefix: PRONUNCIATION_STREAM_PREFIX,
  collections: { [PRONUNCIATION_RULES]: ruleIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const rules = read.collection<RuleView>(PRONUNCIATION_RULES);
    const event = recorded as unknown as PronunciationEvent;
    const _id = String(event.data.ruleId);
    const revision = recorded.revision;
    if (event.type === 'PronunciationRuleCreated') {
      const { ruleId, organizationId, fields, created } = event.data;
      if (await rules.findOne({ _id })) return;
      await rules.put({ ...fields, _id, revision, id: ruleId, organizationId, version: 1, previewStatus: 'pending', previewAudioUrl: null, created, updated: created });
      return;
    }
    const rule = await rules.findOne({ _id });
    if (!rule || revision <= rule.revision) return;
    switch (event.type) {
      case 'PronunciationRuleUpdated': {
        const { changes, version, updated } = event.data;
        const preview = version === rule.version ? {} : { previewStatus: 'pending' as const, previewAudioUrl: null };
        await rules.put({ ...rule, ...changes, ...preview, version, revision, updated });
        return;
      }
      case 'PronunciationPreviewRecorded': {
        if (event.data.version !== rule.version) return;
        await rules.put({ ...rule, previewStatus: event.data.status, previewAudioUrl: event.data.audioUrl, revision });
        return;
      }
      case 'PronunciationRuleDeleted':
        await rules.deleteOne(_id);
        return;
    }
  },
};
