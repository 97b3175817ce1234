// The analytics operations' query parameters and answers, one zod schema each: validation, responses and OpenAPI.
import { z } from 'zod';
import { queryInt } from '../shared/wireSchemas.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { DEVICE_KEYS, MEDIA_FORMATS, MEDIA_VARIANTS } from './playerEvents.ts';

export const METRICS = ['player_impressions', 'listens', 'listen_rate', 'unique_listeners', 'avg_listen_time', 'avg_listen_duration', 'listen_time', 'listener_retention'] as const;
export type Metric = (typeof METRICS)[number];
export const AGGREGATIONS = ['all', 'hour', 'day', 'week', 'month', 'year'] as const;

/** The longest range `hour` takes (the spec's limit), and the longest any aggregation takes. */
export const HOUR_RANGE_DAYS = 7;
export const MAX_RANGE_DAYS = 3_660;
export const DEFAULT_RANGE_DAYS = 30;

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date yyyy-mm-dd').refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), 'must be a real date');
const list = <T extends z.ZodType>(item: T) => z.array(item).max(50);

export const analyticsQuery = z.object({
  aggregation: z.enum(AGGREGATIONS).default('day').describe(`How records group: \`hour\` only for ranges of ${HOUR_RANGE_DAYS} days or less`),
  start_date: date.optional().describe(`First local day (the project's time zone), yyyy-mm-dd; by default ${DEFAULT_RANGE_DAYS - 1} days before end_date`),
  end_date: z.union([date, z.literal('today')]).optional().describe('Last local day, yyyy-mm-dd or `today` (partial until the day ends); by default today'),
  'metrics[]': list(z.enum(METRICS)).optional().describe('Metrics wanted; the others answer null. All by default'),
  'media_variants[]': list(z.enum(MEDIA_VARIANTS)).optional(),
  'media_formats[]': list(z.enum(MEDIA_FORMATS)).optional(),
  'access_tiers[]': list(z.string().max(100)).optional().describe('Access tiers as the player sends them; `none` for listens without one'),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

export const analyticsListQuery = analyticsQuery.extend(pageQuery.shape);
export const pageOf = (query: Record<string, unknown>) =>
  ({ 'pagination[limit]': query['pagination[limit]'], 'pagination[offset]': query['pagination[offset]'] });
export { queryInt };

const byDevice = <T extends z.ZodType>(value: T) => z.object({ total: value, ...Object.fromEntries(DEVICE_KEYS.map((key) => [key, value])) } as { total: T } & Record<(typeof DEVICE_KEYS)[number], T>);

export const numbersByDevice = byDevice(z.number()).meta({ id: 'FiguresByDevice', description: 'A figure in total and per device (`mobile_web`: phones)' });
export const impressionsByDevice = byDevice(z.number())
  .extend({ andriod: z.number().describe("The same as `android`: the spelling of the original's sample, for its clients") })
  .meta({ id: 'ImpressionsByDevice' });
export const retentionByDevice = byDevice(z.array(z.number().int()).length(10).describe('Percentage of listens that reached 10 %, 20 %, …, 100 %')).meta({ id: 'RetentionByDevice' });
export type ByDevice<T> = { total: T } & Record<(typeof DEVICE_KEYS)[number], T>;

export const metricsShape = {
  player_impressions: impressionsByDevice.nullable().describe('Content `load` events'),
  listens: numbersByDevice.nullable().describe('Content `play` events, once per session and item'),
  listen_rate: numbersByDevice.nullable().describe('listens ÷ impressions, a fraction'),
  unique_listeners: numbersByDevice.nullable().describe('Distinct listeners among the listens (HyperLogLog, ±3.25 %)'),
  avg_listen_time: numbersByDevice.nullable().describe('listen_time ÷ listens, seconds'),
  avg_listen_duration: numbersByDevice.nullable().describe('Mean over listens of the largest percentage reached'),
  listen_time: numbersByDevice.nullable().describe('Sum over listens of the largest position reached, seconds'),
  listener_retention: retentionByDevice.nullable(),
};
export const metricsSchema = z.object(metricsShape);
export type Metrics = z.infer<typeof metricsSchema>;

export const analyticsRecord = z.object({ start: z.string().describe("Where the period begins: ISO 8601 in the project's time zone"), ...metricsShape }).meta({ id: 'AnalyticsRecord' });
export const analyticsRecords = z.array(analyticsRecord);

export const projectAnalyticsRow = z.object({ project: z.object({ id: z.number().int(), name: z.string() }), ...metricsShape }).meta({ id: 'ProjectAnalyticsRow' });
export const contentAnalyticsRow = z
  .object({ content: z.object({ id: z.string(), title: z.string().nullable(), source_id: z.string().nullable() }), ...metricsShape })
  .meta({ id: 'ContentAnalyticsRow' });

const adFigures = { impressions: numbersByDevice, clicks: numbersByDevice, click_through_rate: numbersByDevice.describe('clicks ÷ impressions, a fraction') };
export const adAnalyticsRow = z.object({ ad: z.object({ id: z.number().int(), title: z.string().nullable() }), ...adFigures }).meta({ id: 'AdAnalyticsRow' });
export const adAnalyticsRecord = z.object({ start: z.string(), ...adFigures }).meta({ id: 'AdAnalyticsRecord' });
