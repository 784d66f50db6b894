import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  APPLICATION_IMAGES,
  AppConfigSchema,
  BodyFigureConfigSchema,
  BootstrapConfigSchema,
  ContactResponseSchema,
  EnvironmentConfigSchema,
  IntegrationConfigSchema,
  RadiologyConfigSchema,
  ThemeConfigSchema,
  TranslationOverlaySchema,
} from '@contract/api/config';
import { ApiErrorBodySchema } from '@contract/errors';
import { PUBLIC_COMPRESSION } from '../../platform/compression';
import { errorAnswers, notFound } from '../../platform/errors';
import type { ConfigService } from './service';

/** Thin routes (docs/server.md#module-shape): schema from src-contract, call the service, map null to 404. */

const errors = errorAnswers(404, 503);

/** A BCP 47-ish tag such as en-AU; anything else is a 400, not a database lookup. */
const LocaleTagSchema = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'expected a language tag such as en-AU');

const ImageParamsSchema = z.object({ name: z.enum(APPLICATION_IMAGES) });

/** Images may be cached by browsers and proxies: they change rarely, and the ETag revalidates. */
const IMAGE_CACHE_CONTROL = 'public, max-age=3600';

export function registerConfigRoutes(app: FastifyInstance, service: ConfigService): void {
  registerSettingsRoutes(app, service);
  registerTextAndAssetRoutes(app, service);
}

/** The configuration the web shell reads: everything at once, each part on its own, and the clinics for the contact page. */
function registerSettingsRoutes(app: FastifyInstance, service: ConfigService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/config/bootstrap',
    {
      config: { access: 'public' },
      compress: PUBLIC_COMPRESSION,
      schema: {
        tags: ['config'],
        summary: 'Everything the web shell needs before its first render',
        response: { 200: BootstrapConfigSchema, 503: ApiErrorBodySchema },
      },
    },
    () => service.getBootstrap(),
  );

  const parts = [
    ['app', 'Application configuration (locale, meta tags, analytics, kiosk idle time, version)', AppConfigSchema, 'app'],
    [
      'radiology',
      'The radiology provider: names, sanitised About/Contact HTML, links, layout switches',
      RadiologyConfigSchema,
      'radiology',
    ],
    ['body-figure', 'Body-figure colours and body-part styles', BodyFigureConfigSchema, 'bodyFigure'],
    ['integration', 'Error-reporting DSN and environment', IntegrationConfigSchema, 'integration'],
    ['theme', 'Theme colours and fonts', ThemeConfigSchema, 'theme'],
    ['environment', 'Environment profiles and the environment banner', EnvironmentConfigSchema, 'environment'],
  ] as const;

  for (const [path, summary, schema, key] of parts) {
    api.get(
      `/api/config/${path}`,
      {
        config: { access: 'public' },
        compress: PUBLIC_COMPRESSION,
        schema: { tags: ['config'], summary, response: { 200: schema, 503: ApiErrorBodySchema } },
      },
      async () => (await service.getBootstrap())[key],
    );
  }

  api.get(
    '/api/config/contact',
    {
      config: { access: 'public' },
      compress: PUBLIC_COMPRESSION,
      schema: {
        tags: ['config'],
        summary: 'Clinics with address, phone, location and opening hours',
        response: { 200: ContactResponseSchema },
      },
    },
    () => service.getContact(),
  );
}

/** The terms, the translations and the provider's application images. */
function registerTextAndAssetRoutes(app: FastifyInstance, service: ConfigService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/config/terms',
    {
      config: { access: 'public' },
      compress: PUBLIC_COMPRESSION,
      schema: {
        tags: ['config'],
        summary: 'Terms and conditions as sanitised HTML (text/plain body)',
        response: {
          200: { description: 'Sanitised HTML', content: { 'text/plain': { schema: z.string() } } },
          503: ApiErrorBodySchema,
        },
      },
    },
    async (_request, reply) => {
      const html = await service.getTermsHtml();
      return reply.header('content-type', 'text/plain; charset=utf-8').send(html);
    },
  );

  api.get(
    '/api/assets/translations',
    {
      config: { access: 'public' },
      compress: PUBLIC_COMPRESSION,
      schema: {
        tags: ['assets'],
        summary: "The provider's translation overlay for one locale ({} when there is none)",
        querystring: z.object({ lang: LocaleTagSchema }),
        response: { 200: TranslationOverlaySchema },
      },
    },
    (request) => service.getTranslations(request.query.lang),
  );

  // Registered without the zod type provider's reply typing: the body is bytes, which the
  // provider's schema types cannot express. Params are still validated by the same zod schema.
  app.get<{ Params: z.infer<typeof ImageParamsSchema> }>(
    '/api/assets/application/:name',
    {
      config: { access: 'public' },
      schema: {
        tags: ['assets'],
        summary: 'An application image: favicon, header images, background, logos (ETag, 304 when unchanged)',
        params: ImageParamsSchema,
        response: {
          200: { description: 'The image bytes', content: { 'image/*': { schema: z.string().meta({ format: 'binary' }) } } },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const image = await service.getImage(request.params.name);
      if (image === null) throw notFound(`The provider has no ${request.params.name} image.`);
      reply.header('etag', image.etag).header('cache-control', IMAGE_CACHE_CONTROL);
      if (request.headers['if-none-match'] === image.etag) return reply.code(304).send();
      return reply.header('content-type', image.contentType).send(image.content);
    },
  );
}
