// Mounts the GraphQL admin API (Apollo Server) on /graphql of the Koa app, behind the same API keys.
import type Koa from 'koa';
import { ApolloServer } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { koaMiddleware } from '@as-integrations/koa';
import type { GraphQLFormattedError } from 'graphql';
import { AppError, httpStatusOf } from '../shared/errors.ts';
import { buildGraphqlSchema } from './schema.ts';
import type { GraphqlContext } from './resolvers.ts';

/** Errors keep the REST meaning: the kind as `code`, the HTTP status, and field errors for invalid input. */
function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof AppError) {
    return {
      message: original.message,
      path: formatted.path,
      extensions: { code: original.kind.toUpperCase(), status: httpStatusOf[original.kind], errors: original.errors },
    };
  }
  if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') return { message: 'Internal Server Error', path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  return formatted;
}

export async function mountGraphql(app: Koa, actions: GraphqlContext['actions']): Promise<void> {
  const server = new ApolloServer<GraphqlContext>({ schema: await buildGraphqlSchema(), formatError, introspection: true });
  await server.start();
  const middleware = koaMiddleware(server, { context: async ({ ctx }) => ({ ctx, actions }) });
  app.use(async function graphql(ctx, next) {
    if (ctx.path !== '/graphql') return next();
    // Apollo calls next() after answering; nothing after it may touch the response.
    return middleware(ctx, async () => undefined);
  });
}
