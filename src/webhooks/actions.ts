// Webhook use cases of the REST routes; answers are wire-shaped.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { reachableProject } from '../http/auth.ts';
import { notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { findWebhook, listDeliveries, listWebhooks, type WebhookView } from './readModel.ts';
import { deliveryToWire, pageQuery, webhookTestToWire, webhookToWire } from './wire.ts';

export type WebhookActions = ReturnType<typeof webhookActions>;

/** A route's `{id}`: a positive integer, or nothing is found. */
const webhookIdOf = (ref: string) => (/^\d{1,12}$/.test(ref) ? Number(ref) : NaN);

export function webhookActions({ read, runner, webhooks, now }: Services) {
  const existing = async (projectId: number, ref: string): Promise<WebhookView> => {
    const webhookId = webhookIdOf(ref);
    const webhook = Number.isSafeInteger(webhookId) ? await findWebhook(read, projectId, webhookId) : null;
    if (!webhook) throw notFound();
    return webhook;
  };

  /** Answers from the read model once it has applied the command's events (read-your-writes). */
  const afterWrite = async (projectId: number, webhookId: number, position: number) => {
    await runner.waitFor(position);
    return webhookToWire(await existing(projectId, String(webhookId)));
  };

  const page = (query: Record<string, unknown>) => {
    const parsed = parseOrThrow(pageQuery, query, 'Invalid query parameters');
    return { offset: parsed['pagination[offset]'], limit: parsed['pagination[limit]'] };
  };

  return {
    async list(ctx: Context, projectRef: string | undefined, query: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectRef);
      const { offset, limit } = page(query);
      return (await listWebhooks(read, project.id, offset, limit)).map(webhookToWire);
    },

    /** The only answer that shows the signing secret. */
    async create(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const { webhookId, secret, position } = await webhooks.create(project.id, body, now());
      return { ...(await afterWrite(project.id, webhookId, position)), secret };
    },

    async get(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      return webhookToWire(await existing(project.id, ref));
    },

    async update(ctx: Context, projectRef: string | undefined, ref: string, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const webhook = await existing(project.id, ref);
      return afterWrite(project.id, webhook.id, await webhooks.update(project.id, webhook.id, body, now()));
    },

    async remove(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      const webhook = await existing(project.id, ref);
      await runner.waitFor(await webhooks.remove(project.id, webhook.id, now()));
    },

    async test(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      const webhook = await existing(project.id, ref);
      const result = await webhooks.test(project.id, webhook.id, now());
      await runner.waitFor(result.position);
      return webhookTestToWire(result);
    },

    async deliveries(ctx: Context, projectRef: string | undefined, ref: string, query: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectRef);
      const webhook = await existing(project.id, ref);
      const { offset, limit } = page(query);
      return (await listDeliveries(read, webhook.id, offset, limit)).map(deliveryToWire);
    },
  };
}
