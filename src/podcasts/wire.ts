// The one mapping from podcast settings to the wire format.
import { snakeKeys } from '../shared/caseMapping.ts';
import type { PodcastSettings } from './readModel.ts';

export const podcastSettingsToWire = (settings: PodcastSettings) => snakeKeys(settings);
