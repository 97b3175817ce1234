// API key authentication: who is calling, and what they may reach.
import type { Context, Next } from 'koa';
import { forbidden, notFound, unauthorized } from '../shared/errors.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { findApiKey } from '../organizations/readModel.ts';
import { findProject, type ProjectView } from '../projects/readModel.ts';

export interface Principal {
  keyHash: string;
  organizationId: number;
  scope: 'organization' | 'project';
  projectId: number | null;
}

/**
 * A publishing platform's posts webhook is a URL the publisher pastes into the platform, which sends no headers of
 * theirs: its key is the `api_key` query parameter, and only that (src/cmsIntegration/routes.ts).
 */
const QUERY_KEY_ROUTE = /^\/v1\/projects\/[^/]+\/integrations\/cms\/posts$/;

function keyOf(ctx: Context): string {
  if (ctx.method !== 'POST' || !QUERY_KEY_ROUTE.test(ctx.path)) return ctx.get('x-api-key');
  const key = ctx.query.api_key;
  return typeof key === 'string' ? key : '';
}

export function authenticate(read: ReadStore) {
  return async function requireApiKey(ctx: Context, next: Next) {
    const key = keyOf(ctx);
    const found = key ? await findApiKey(read, key) : null;
    if (!found) throw unauthorized();
    ctx.state.principal = { keyHash: found._id, organizationId: found.organizationId, scope: found.scope, projectId: found.projectId } satisfies Principal;
    await next();
  };
}

export const principalOf = (ctx: Context): Principal => ctx.state.principal as Principal;

export const canReach = (principal: Principal, project: ProjectView) =>
  project.organizationId === principal.organizationId && (principal.scope === 'organization' || principal.projectId === project.id);

/** The project of a route, if the caller may reach it; anything else is a 404 so other projects stay invisible. */
export async function reachableProject(ctx: Context, read: ReadStore, param: string | undefined): Promise<ProjectView> {
  const projectId = /^\d{1,12}$/.test(param ?? '') ? Number(param) : NaN;
  const project = Number.isSafeInteger(projectId) ? await findProject(read, projectId) : null;
  if (!project || !canReach(principalOf(ctx), project)) throw notFound();
  return project;
}

export function requireOrganizationKey(ctx: Context): Principal {
  const principal = principalOf(ctx);
  if (principal.scope !== 'organization') throw forbidden();
  return principal;
}
