// The GraphQL object types expose the same fields as the zod schemas of the REST answers they share.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { contentItemWire, mediaFileWire } from '../../src/content/wire.ts';
import { projectWire } from '../../src/projects/wire.ts';
import { adAnalyticsRecord, adAnalyticsRow, analyticsRecord, contentAnalyticsRow, impressionsByDevice, numbersByDevice, projectAnalyticsRow, retentionByDevice } from '../../src/analytics/wire.ts';
import { ROOT } from '../support/server.ts';

// The committed SDL: test/graphql keeps it in step with the type-graphql classes.
const schema = buildSchema(readFileSync(path.join(ROOT, 'schema/schema.graphql'), 'utf8'));
const fieldsOf = (name: string) => Object.keys((schema.getType(name) as GraphQLObjectType).getFields()).sort();

describe('GraphQL types and REST schemas', () => {
  it.each([
    ['ContentItem', contentItemWire],
    ['Project', projectWire],
    ['MediaFile', mediaFileWire],
    ['AnalyticsRecord', analyticsRecord],
    ['ProjectAnalyticsRow', projectAnalyticsRow],
    ['ContentAnalyticsRow', contentAnalyticsRow],
    ['AdAnalyticsRow', adAnalyticsRow],
    ['AdAnalyticsRecord', adAnalyticsRecord],
    ['FiguresByDevice', numbersByDevice],
    ['ImpressionsByDevice', impressionsByDevice],
    ['RetentionByDevice', retentionByDevice],
  ])('%s has exactly the fields of its zod schema', (name, wire) => {
    expect(fieldsOf(name)).toEqual(Object.keys(wire.shape).sort());
  });
});
