// The speaker read model: its document type and the queries of the speaker routes.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { SpeakerFields } from './events.ts';

export const SPEAKERS = 'speakers';

export type SpeakerView = SpeakerFields & { _id: string; revision: number; id: number; organizationId: number; created: string; updated: string };

export const speakerIndexes: IndexSpec[] = [{ name: 'organization_id', keys: { organizationId: 1, id: 1 } }];

/** By id, and only within its organization: another organization's speaker is as good as missing. */
export async function findSpeaker(read: ReadStore, organizationId: number, id: number): Promise<SpeakerView | null> {
  const found = await read.collection<SpeakerView>(SPEAKERS).findOne({ _id: String(id) });
  return found?.organizationId === organizationId ? found : null;
}

export const listSpeakers = (read: ReadStore, organizationId: number, offset: number, limit: number) =>
  read.collection<SpeakerView>(SPEAKERS).find({ organizationId }, { sort: { id: 1 }, skip: offset, limit });
