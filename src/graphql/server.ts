// Mounts the GraphQL admin API (Apollo Server) on /graphql of the Koa app, behind the same API keys and request limits.
import type Koa from 'koa';
import { ApolloServer } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { AppError, httpStatusOf } from '../shared/errors.ts';
import { isStorageFull } from '../shared/storageFull.ts';
import { buildGraphqlSchema } from './schema.ts';
import type { GraphqlContext } from './resolvers.ts';
import { apolloHandler } from './koa.ts';
import { GRAPHQL_LIMITS, limitValidationRules, operationLimitsPlugin, queryTextProblem } from './limits.ts';

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
  if (isStorageFull(original)) return { message: 'Insufficient Storage', path: formatted.path, extensions: { code: 'INSUFFICIENT_STORAGE', status: 507 } };
  if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') return { message: 'Internal Server Error', path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  return formatted;
}

export async function mountGraphql(app: Koa, actions: GraphqlContext['actions']): Promise<void> {
  const schema = await buildGraphqlSchema();
  const server = new ApolloServer<GraphqlContext>({
    schema,
    formatError,
    introspection: true,
    // Stack traces name the server's files; clients get the message and code only.
    includeStacktraceInErrorResponses: false,
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    // Setting it also makes Apollo run our validation rules only once the specification's rules passed.
    maxRecursiveSelections: GRAPHQL_LIMITS.maxRecursiveSelections,
    validationRules: limitValidationRules,
    plugins: [operationLimitsPlugin(schema)],
    // The process's own graceful shutdown (src/http/shutdown.ts) handles SIGTERM; Apollo's would stop GraphQL
    // before requests in flight finish, then raise the signal again.
    stopOnTerminationSignals: false,
  });
  await server.start();
  const execute = apolloHandler(server, async (ctx) => ({ ctx, actions }));
  app.use(async function graphql(ctx, next) {
    if (ctx.path !== '/graphql') return next();
    const query = ctx.method === 'GET' ? ctx.query.query : (ctx.request.body as { query?: unknown } | undefined)?.query;
    const refused = queryTextProblem(query);
    if (refused) {
      ctx.status = 400;
      ctx.body = { errors: [{ message: refused.message, extensions: { code: refused.extensions.code, status: 400 } }] };
      return;
    }
    return execute(ctx);
  });
}
