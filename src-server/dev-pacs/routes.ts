import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEMO_VIEWER_LINK, DemoStudySchema } from '@contract/api/image-viewer';
import { errorAnswers, forbidden, notFound } from '../platform/errors';
import type { SignedLinks } from '../platform/signed-links';
import { demoStudy, renderStudyImage } from './study-images';
import { singleLineText } from '@contract/api/text';

/**
 * The demo PACS viewer's API (the stand-in for a provider's own image viewer): the study and its
 * images for whoever holds a demo viewer link, a signed link (DEMO_VIEWER_LINK: purpose
 * 'demo-viewer.study', audience 'demo-pacs') whose subject is the StudyInstanceUID. Always
 * registered: only links this server signed open anything, and the pictures are synthetic.
 * A bad, expired or wrong link is a 403, audited without the token.
 */

export interface DemoPacsDeps {
  signedLinks: () => Promise<SignedLinks>;
}

/**
 * The link: optional, so a missing or mangled one is refused like any other bad link (403,
 * audited as demo_viewer_link_malformed); only the signed links' largest length is checked here.
 */
const StudyQuerySchema = z.strictObject({ token: singleLineText().max(1024).optional() });
const ImageParamsSchema = z.strictObject({
  index: z
    .string()
    .regex(/^(0|[1-9][0-9]?)$/, 'The image index is a number from 0 to 99.')
    .transform(Number),
});

const REFUSED_MESSAGES = {
  expired: 'This image link has expired. Open the images again from your results page.',
  invalid: 'This image link is not valid. Open the images again from your results page.',
} as const;
const errors = errorAnswers(400, 403, 404);
/** The pictures never change for a link, and a link lives minutes: a short private cache. */
const IMAGE_CACHE = 'private, max-age=300';
/** Drawing one takes tens of milliseconds: the last few (about 170 KB each) are kept. */
const KEPT_IMAGES = 24;

/** The PNG of image `index` of the study, from the small cache of recent ones or drawn now; null past the study's end. */
function studyImage(kept: Map<string, Buffer>, studyInstanceUid: string, index: number): Buffer | null {
  const key = `${studyInstanceUid}/${index}`;
  const hit = kept.get(key);
  if (hit !== undefined) {
    // Most recently used last: the first key is the one to drop.
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const png = renderStudyImage(studyInstanceUid, index);
  if (png === null) return null;
  kept.set(key, png);
  if (kept.size > KEPT_IMAGES) kept.delete(kept.keys().next().value ?? key);
  return png;
}

export function registerDemoPacsRoutes(app: FastifyInstance, deps: DemoPacsDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const kept = new Map<string, Buffer>();

  /** The StudyInstanceUID the link names, or a 403 (audited as demo_viewer_link_<reason>). */
  async function studyOf(request: FastifyRequest, token: string | undefined): Promise<string> {
    const links = await deps.signedLinks();
    const verified = links.verify(token, DEMO_VIEWER_LINK);
    if (verified.ok) return verified.subject;
    await request.server.securityAudit.refused(request, { reason: `demo_viewer_link_${verified.reason}` });
    throw forbidden(verified.reason === 'expired' ? REFUSED_MESSAGES.expired : REFUSED_MESSAGES.invalid);
  }

  api.get(
    '/api/demo-viewer/study',
    {
      config: { access: 'image-viewer-link' },
      schema: {
        tags: ['demo-pacs'],
        summary: 'Demo image viewer: the study a demo viewer link (signed link) opens',
        querystring: StudyQuerySchema,
        response: { 200: DemoStudySchema, ...errors },
      },
    },
    async (request, reply) => {
      const studyInstanceUid = await studyOf(request, request.query.token);
      return reply.header('cache-control', 'private, no-store').send(demoStudy(studyInstanceUid));
    },
  );

  // Without the zod type provider's reply typing (the body is bytes, as the application images);
  // params and query are still validated by the zod schemas, and the handler sees their output.
  app.get<{ Params: z.output<typeof ImageParamsSchema>; Querystring: z.output<typeof StudyQuerySchema> }>(
    '/api/demo-viewer/images/:index',
    {
      config: { access: 'image-viewer-link' },
      schema: {
        tags: ['demo-pacs'],
        summary: 'Demo image viewer: one synthetic image (PNG) of the study a demo viewer link opens',
        params: ImageParamsSchema,
        querystring: StudyQuerySchema,
        response: {
          200: { description: 'The image (PNG)', content: { 'image/png': { schema: z.string().meta({ format: 'binary' }) } } },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const studyInstanceUid = await studyOf(request, request.query.token);
      const png = studyImage(kept, studyInstanceUid, request.params.index);
      if (png === null) throw notFound('The study has no image with this number.');
      return reply
        .header('content-type', 'image/png')
        .header('content-length', String(png.length))
        .header('cache-control', IMAGE_CACHE)
        .header('x-content-type-options', 'nosniff')
        .send(png);
    },
  );
}
