// The speaker read model: its document type and the queries of the speaker routes.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { organizationResource, organizationResourceIndexes, type OrganizationResourceDocument } from '../shared/organizationResources.ts';
import type { SpeakerFields } from './events.ts';

export const SPEAKERS = 'speakers';

export type SpeakerView = OrganizationResourceDocument<SpeakerFields>;

export const speakerIndexes = organizationResourceIndexes;

const speakers = organizationResource<SpeakerView>(SPEAKERS);

export const findSpeaker = speakers.find;

export const listSpeakers = (read: ReadStore, organizationId: number, offset: number, limit: number) =>
  speakers.list(read, organizationId, { skip: offset, limit });
