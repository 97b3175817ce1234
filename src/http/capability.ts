// How every capability joins the app, one way: routes behind an API key on the /v1 router, and public handlers
// (no key, any origin: player data, feeds, media, pages) tried in order before route matching and authentication.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Services } from '../services.ts';

export interface Capability {
  /** Registers the capability's keyed routes (paths relative to /v1). */
  routes?(router: Router, services: Services): void;
  /** Handlers of its public paths; each calls next() for a path that is not its own. */
  publicRoutes?(services: Services): Middleware[];
}
