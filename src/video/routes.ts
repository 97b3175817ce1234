// The /v1 video preview routes: a short sample rendered with a template's settings or with settings in the body.
import type { Capability } from '../http/capability.ts';
import { videoPreviewActions } from './preview.ts';

export const videoPreviewCapability: Capability = {
  routes(router, services) {
    const previews = videoPreviewActions(services, services.videoRenderer);
    router.post('/video_settings_templates/:id/preview', async (ctx) => {
      ctx.body = await previews.template(ctx, ctx.params.id, ctx.request.body);
    });
    router.post('/projects/:projectId/video_settings/preview', async (ctx) => {
      ctx.body = await previews.project(ctx, ctx.params.projectId, ctx.request.body);
    });
  },
};
