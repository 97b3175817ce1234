// The custom voice read model: one document per voice an organization made, and the queries of the voice routes.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { CustomVoiceFields } from './events.ts';

export const CUSTOM_VOICES = 'customVoices';

export type CustomVoiceView = CustomVoiceFields & {
  _id: string;
  /** Revision of the organization's voices stream the document reflects. */
  revision: number;
  id: number;
  organizationId: number;
  created: string;
  updated: string;
};

export const customVoiceIndexes: IndexSpec[] = [{ name: 'organization_id', keys: { organizationId: 1, id: 1 } }];

const voices = (read: ReadStore) => read.collection<CustomVoiceView>(CUSTOM_VOICES);

/** By id, and only within its organization: another organization's voice is as good as missing. */
export async function findCustomVoice(read: ReadStore, organizationId: number, id: number): Promise<CustomVoiceView | null> {
  const found = await voices(read).findOne({ _id: String(id) });
  return found?.organizationId === organizationId ? found : null;
}

export const listCustomVoices = (read: ReadStore, organizationId: number) => voices(read).find({ organizationId }, { sort: { id: 1 } });
