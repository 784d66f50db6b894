import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AccessionParamsSchema, ImageGenerateAnswerSchema, ImagesGeneratedSchema } from '@contract/api/quick-report';
import { REPORT_PDF_MAX_BYTES, ResultDeliveryAnswerSchema, ResultDeliverySchema } from '@contract/api/results';
import { ApiErrorBodySchema } from '@contract/errors';
import { bearerTokenOf, matchesTokenDigest } from '../../platform/api-tokens';
import { errorAnswers, forbidden } from '../../platform/errors';
import type { ResultDeliveryService } from './delivery';
import type { ImageGenerationService } from './image-generation';

declare module 'fastify' {
  interface FastifyInstance {
    /** The results delivery the integration route uses, for the demo PACS's deliveries at start (src-server/main.ts). */
    resultDelivery: ResultDeliveryService;
  }
}

/**
 * Thin routes for results (docs/rules/results.md). Delivery is for the provider's RIS and PACS
 * only: `Authorization: Bearer <token>` whose sha256 is configured (INTEGRATION_API_TOKEN_SHA256).
 */

const errors = errorAnswers(400, 403, 409, 413);
const NO_STORE = { 'cache-control': 'no-store' };
/** The base64 of the largest PDF and the rest of the delivery. */
const DELIVERY_BODY_LIMIT = Math.ceil((REPORT_PDF_MAX_BYTES * 4) / 3) + 256 * 1024;

export function registerResultRoutes(
  app: FastifyInstance,
  services: { delivery: ResultDeliveryService; generation: ImageGenerationService },
  integrationTokenDigests: readonly string[],
): void {
  const { delivery, generation } = services;
  app.decorate('resultDelivery', delivery);
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Checked before the body is read (the access hook runs onRequest), so nobody else can send 14 MB.
  app.defineAccessCheck('integration-token', async (request: FastifyRequest): Promise<void> => {
    const token = bearerTokenOf(request.headers.authorization);
    if (token === null || !matchesTokenDigest(token, integrationTokenDigests)) {
      // Audited without the token: src-server/platform/security-audit.ts.
      await request.server.securityAudit.refused(request, {
        reason: token === null ? 'integration_token_missing' : 'integration_token_wrong',
      });
      throw forbidden('This operation is for the RIS and PACS integration with a valid API token.');
    }
  });

  api.post(
    '/api/integration/results',
    {
      config: { access: 'integration-token' },
      bodyLimit: DELIVERY_BODY_LIMIT,
      schema: {
        tags: ['results'],
        summary: 'RIS and PACS: deliver a finalised report (PDF and text) and its study; idempotent by accession number',
        body: ResultDeliverySchema,
        response: { 200: ResultDeliveryAnswerSchema, 201: ResultDeliveryAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await delivery.deliver(request.body);
      return reply
        .code(answer.outcome === 'created' ? 201 : 200)
        .headers(NO_STORE)
        .send(answer);
    },
  );

  api.post(
    '/api/integration/results/:accessionNumber/images',
    {
      config: { access: 'integration-token' },
      schema: {
        tags: ['results'],
        summary: "RIS and PACS: the images a referrer's quick report asked for are ready (the study) or could not be made (why)",
        params: AccessionParamsSchema,
        body: ImagesGeneratedSchema,
        response: { 200: ImageGenerateAnswerSchema, 404: ApiErrorBodySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.headers(NO_STORE).send({ images: await generation.completeByAccession(request.params.accessionNumber, request.body) }),
  );
}
