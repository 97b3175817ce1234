// How every capability joins the app, one way: routes behind an API key on the /v1 router, and public handlers
// (no key, any origin: player data, feeds, media, pages) tried in order before route matching and authentication;
// the player events beacon, the one hot public endpoint, on node's request and response ahead of Koa.
import type Router from '@koa/router';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import type { Services } from '../services.ts';

export interface Capability {
  /** Registers the capability's keyed routes (paths relative to /v1). */
  routes?(router: Router, services: Services): void;
  /** Handlers of its public paths; each calls next() for a path that is not its own. */
  publicRoutes?(services: Services): Middleware[];
  /**
   * Handlers answering on node's own request and response, tried before Koa: for a public endpoint called thousands
   * of times a second, whose own work costs less than Koa's context and middleware would (the player events beacon).
   */
  nodeRoutes?(services: Services): NodeRoute[];
}

/** Answers the request and returns true when its path is the route's own; returns false, touching nothing, when not. */
export type NodeRoute = (request: IncomingMessage, response: ServerResponse) => boolean;
