// The custom voice read model: one document per voice an organization made, and the queries of the voice routes.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { organizationResource, organizationResourceIndexes, type OrganizationResourceDocument } from '../shared/organizationResources.ts';
import type { CustomVoiceFields } from './events.ts';

export const CUSTOM_VOICES = 'customVoices';

/** `revision` is the one of the organization's voices stream the document reflects. */
export type CustomVoiceView = OrganizationResourceDocument<CustomVoiceFields>;

export const customVoiceIndexes = organizationResourceIndexes;

const voices = organizationResource<CustomVoiceView>(CUSTOM_VOICES);

export const findCustomVoice = voices.find;

/** All of them: an organization has few, and they are listed with the catalogue's voices. */
export const listCustomVoices = (read: ReadStore, organizationId: number) => voices.list(read, organizationId);
