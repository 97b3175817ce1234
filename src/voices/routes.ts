// Voice and language routes: the organization's catalogue and a project's voices.
import type Router from '@koa/router';
import { z } from 'zod';
import type { Services } from '../services.ts';
import type { Capability } from '../http/capability.ts';
import { reachableProject } from '../http/auth.ts';
import { rawQuery } from '../http/query.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { languageCode } from '../shared/wireSchemas.ts';
import type { Voice } from './catalogue.ts';
import { voiceToWire } from './wire.ts';

export const voiceQuery = z.object({ 'filter[language.code]': languageCode.optional() });

/** A language code matches its own voices; a bare language (`en`) matches every region of it. */
const speaks = (voice: Voice, code: string) => voice.language.code === code || (!code.includes('_') && voice.language.code.split('_')[0] === code);

export function voiceRoutes(router: Router, { voices, read }: Services) {
  // Any valid key may read the catalogue: publishing plugins holding a project key look voices up.
  router.get('/organization/voices', async (ctx) => {
    const code = parseOrThrow(voiceQuery, rawQuery(ctx), 'Invalid query parameters')['filter[language.code]'];
    ctx.body = voices.voices.filter((voice) => !code || speaks(voice, code)).map(voiceToWire);
  });

  router.get('/organization/languages', async (ctx) => {
    ctx.body = voices.languages();
  });

  router.get('/projects/:projectId/voices', async (ctx) => {
    const project = await reachableProject(ctx, read, ctx.params.projectId);
    const base = project.language.split('_')[0]!;
    ctx.body = voices.voices.filter((voice) => speaks(voice, base)).map(voiceToWire);
  });
}

export const voiceCapability: Capability = { routes: voiceRoutes };
