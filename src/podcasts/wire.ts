// The podcast settings' wire format: the request schema's fields, all answered (source of the OpenAPI document), and its mapping.
import { z } from 'zod';
import { snakeKeys } from '../shared/caseMapping.ts';
import { timestamp } from '../shared/wireResponses.ts';
import { podcastSettingsSchema } from './commands.ts';
import type { PodcastSettings } from './readModel.ts';

export const podcastSettingsWire = podcastSettingsSchema
  .required()
  .extend({ updated: timestamp.nullable().describe('null until the settings are first changed') })
  .meta({ id: 'PodcastSettings' });
type PodcastSettingsWire = z.infer<typeof podcastSettingsWire>;

export const podcastSettingsToWire = (settings: PodcastSettings) => snakeKeys(settings) as PodcastSettingsWire;
