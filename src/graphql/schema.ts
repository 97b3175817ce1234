// Builds the GraphQL schema from the resolvers; the SDL in schema/ is printed from it.
import 'reflect-metadata';
import { buildSchema } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { ContentResolver, ProjectResolver } from './resolvers.ts';
import { AnalyticsResolver } from './analytics.ts';

export const buildGraphqlSchema = (): Promise<GraphQLSchema> =>
  buildSchema({ resolvers: [ProjectResolver, ContentResolver, AnalyticsResolver], validate: false });
