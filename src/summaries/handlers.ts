// Summary commands: script templates through the resource kit (the organization as owner), and a project's
// settings against their own stream. Models must be ones the service offers; a template must be the organization's.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { Summarizer } from '../infrastructure/summarizer/port.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { organizationResourceWrites } from '../shared/crud/organizationDecider.ts';
import { handleCommand } from '../shared/decider.ts';
import { invalid } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { slugOf } from '../videoTemplates/commands.ts';
import { summarizationSettingsSchema, summaryTemplateSchemas } from './commands.ts';
import { summarizationSettingsDecider } from './decider.ts';
import {
  settingsChangesOf,
  summarizationSettingsStream,
  summaryTemplateLifecycle,
  summaryTemplateStream,
  type SummaryTemplateEvent,
  type SummaryTemplateFields,
} from './events.ts';
import { findSummaryTemplate } from './readModel.ts';

/** A model name the summarizer does not offer is a 422 where the body named it. */
export function checkModel(summarizer: Summarizer, model: string | null | undefined, location = 'model') {
  if (model && !summarizer.models().includes(model)) {
    throw invalid([{ location, message: `is not offered; one of: ${summarizer.models().join(', ')}` }]);
  }
}

type TemplateBody = Omit<SummaryTemplateFields, 'slug'> & { slug?: string };

export function createSummaryTemplateHandlers(store: EventStore, summarizer: Summarizer) {
  return projectResourceHandlers(store, {
    sequence: 'summary-template',
    stream: summaryTemplateStream,
    schemas: summaryTemplateSchemas,
    ...organizationResourceWrites<SummaryTemplateFields, SummaryTemplateEvent, TemplateBody>(summaryTemplateLifecycle, {
      created: (fields) => ({ ...fields, slug: fields.slug ?? slugOf(fields.name) }),
      changed: (changes) => changes as Partial<SummaryTemplateFields>,
    }),
    async prepare(_organizationId, fields) {
      checkModel(summarizer, fields.model);
      return {};
    },
  });
}

export function createSummarizationSettingsHandlers(store: EventStore, read: ReadStore, summarizer: Summarizer) {
  return {
    /** The position of the recorded change; 0 when nothing changed. */
    async update(projectId: number, organizationId: number, body: unknown, now: Date): Promise<number> {
      const wire = parseOrThrow(summarizationSettingsSchema, body);
      checkModel(summarizer, wire.model);
      if (wire.template && !(await findSummaryTemplate(read, organizationId, wire.template.id))) {
        throw invalid([{ location: 'template.id', message: 'names no script template of this organization' }]);
      }
      const command = { kind: 'UpdateSummarizationSettings', projectId, changes: settingsChangesOf(wire), now: now.toISOString() } as const;
      return (await handleCommand(store, summarizationSettingsStream(projectId), summarizationSettingsDecider, command)).position;
    },
  };
}
