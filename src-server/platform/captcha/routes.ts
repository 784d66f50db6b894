import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CaptchaChallengeSchema } from '@contract/api/captcha';
import { ApiErrorBodySchema } from '@contract/errors';
import type { Captcha } from './captcha';

/** Anyone may ask for a challenge: it is what a refused client needs to prove it spent the work. */
export function registerCaptchaRoutes(app: FastifyInstance, captcha: Captcha): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/captcha/challenge',
    {
      config: { access: 'public' },
      schema: {
        tags: ['captcha'],
        summary: 'A signed proof-of-work challenge (public); its answer goes in the X-Captcha header of the refused request',
        response: { 200: CaptchaChallengeSchema, 503: ApiErrorBodySchema },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send(await captcha.challenge()),
  );
}
