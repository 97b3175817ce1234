// The projection of an organization-owned resource whose life is created, updated, deleted: one document per
// resource, guarded by stream revision so replays are idempotent.
import type { NewEvent, RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { IndexSpec, ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Lifecycle } from '../src/shared/crud/organizationDecider.ts';
import type { OrganizationResourceDocument } from '../src/shared/organizationResources.ts';
import type { Projection } from './projection.ts';

type Document = OrganizationResourceDocument<object>;
/** The fields of a document that the resource's events carry (or that `derived` adds). */
type OwnFields<View> = Omit<View, keyof Document>;

/** `idKey` names the id in the created event, and in every event when the stream is the organization's. */
export interface OrganizationResourceEvents<Event extends NewEvent, View extends Document> extends Lifecycle<Event> {
  name: string;
  streamPrefix: string;
  collection: string;
  indexes: IndexSpec[];
  /**
   * `resource`: one stream per resource, whose name ends with the document's id (speakers);
   * `organization`: one stream per organization (custom voices), each event naming its resource with `idKey`.
   */
  streams: 'resource' | 'organization';
  /** Fields of a new document that follow from its own (a track's scope: its project never changes). */
  derived?(fields: OwnFields<View>): Partial<View>;
}

type Created = { organizationId: number; fields: object; created: string } & Record<string, unknown>;
type Updated = { changes: object; updated: string };

export function organizationResourceProjection<Event extends NewEvent, View extends Document>(
  spec: OrganizationResourceEvents<Event, View>,
): Projection {
  const { streamPrefix, collection, types, idKey } = spec;
  const documentId = (recorded: RecordedEvent) =>
    spec.streams === 'resource' ? recorded.stream.slice(streamPrefix.length) : String((recorded.data as Record<string, unknown>)[idKey]);

  return {
    name: spec.name,
    streamPrefix,
    collections: { [collection]: spec.indexes },

    async apply(recorded: RecordedEvent, read: ReadStore) {
      const documents = read.collection<View>(collection);
      const _id = documentId(recorded);
      const revision = recorded.revision;
      if (recorded.type === types.created) {
        const data = recorded.data as Created;
        const { organizationId, fields, created } = data;
        if (await documents.findOne({ _id })) return;
        const derived = spec.derived?.(fields as OwnFields<View>);
        await documents.put({ ...fields, _id, revision, id: data[idKey], organizationId, ...derived, created, updated: created } as View);
        return;
      }
      const document = await documents.findOne({ _id });
      if (!document || revision <= document.revision) return;
      switch (recorded.type) {
        case types.updated: {
          const { changes, updated } = recorded.data as Updated;
          await documents.put({ ...document, ...changes, revision, updated });
          return;
        }
        case types.deleted:
          await documents.deleteOne(_id);
          return;
      }
    },
  };
}
