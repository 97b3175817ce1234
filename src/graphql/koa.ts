// Hands a Koa request to Apollo Server and its answer back to Koa (the body is already parsed by src/http/limits.ts).
import type { Context } from 'koa';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';

/** A Koa handler for one started Apollo Server; answers single (non-incremental) results only. */
export function apolloHandler<T extends BaseContext>(server: ApolloServer<T>, context: (ctx: Context) => Promise<T>) {
  server.assertStarted('apolloHandler()');
  return async function executeGraphql(ctx: Context): Promise<void> {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(ctx.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: ctx.method.toUpperCase(), headers, search: ctx.querystring ? `?${ctx.querystring}` : '', body: ctx.request.body },
      context: () => context(ctx),
    });
    // Incremental delivery (@defer/@stream) is not enabled on this server, so every answer is complete.
    if (answer.body.kind !== 'complete') throw new Error(`GraphQL answer delivered as ${answer.body.kind}`);
    ctx.status = answer.status ?? 200;
    for (const [name, value] of answer.headers) ctx.set(name, value);
    ctx.body = answer.body.string;
  };
}
