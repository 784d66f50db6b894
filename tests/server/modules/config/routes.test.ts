import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
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
} from '@contract/api/config';
import { ApiErrorBodySchema } from '@contract/errors';
import { DEMO_PROVIDER_DIR, loadDemoProvider, type DemoProvider } from '../../../../src-server/db/seed/demo-provider';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';

const PARTS: [string, keyof z.infer<typeof BootstrapConfigSchema>, z.ZodType][] = [
  ['app', 'app', AppConfigSchema],
  ['radiology', 'radiology', RadiologyConfigSchema],
  ['body-figure', 'bodyFigure', BodyFigureConfigSchema],
  ['integration', 'integration', IntegrationConfigSchema],
  ['theme', 'theme', ThemeConfigSchema],
  ['environment', 'environment', EnvironmentConfigSchema],
];

describe.each(backends())('config and asset endpoints on %s', (backend) => {
  const server = useTestApp({ backend });
  let demo: DemoProvider;
  beforeAll(async () => {
    demo = await loadDemoProvider();
  });

  it('GET /api/config/bootstrap answers every part, matching the contract schema', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/config/bootstrap' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = BootstrapConfigSchema.parse(response.json());
    expect(body.radiology.name).toBe(demo.provider.radiology.name);
    expect(body.theme).toEqual(demo.provider.theme);
    // Version fields come from the server's configuration, not from the database.
    expect(body.app.version).toBe('9.8.7');
    expect(body.app.versionHash).toBe('abc1234');
  });

  it.each(PARTS)('GET /api/config/%s answers that part of the bootstrap', async (path, key, schema) => {
    const [part, bootstrap] = await Promise.all([
      server.app.inject({ method: 'GET', url: `/api/config/${path}` }),
      server.app.inject({ method: 'GET', url: '/api/config/bootstrap' }),
    ]);
    expect(part.statusCode).toBe(200);
    const value = schema.parse(part.json());
    expect(value).toEqual(BootstrapConfigSchema.parse(bootstrap.json())[key]);
  });

  it('GET /api/config/contact lists every clinic with region, address, location and opening hours', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/config/contact' });
    expect(response.statusCode).toBe(200);
    const { clinics } = ContactResponseSchema.parse(response.json());
    expect(clinics.map((clinic) => clinic.slug).sort()).toEqual(demo.clinics.map((clinic) => clinic.slug).sort());
    const first = demo.clinics[0];
    const served = clinics.find((clinic) => clinic.slug === first?.slug);
    expect(served).toMatchObject({
      name: first?.name,
      address: first?.address,
      latitude: first?.latitude,
      longitude: first?.longitude,
      timeZone: first?.timeZone,
      region: { slug: first?.regionSlug },
    });
    expect(served?.openingHours).toEqual(
      [...(first?.openingHours ?? [])].sort((a, b) => a.weekday - b.weekday || a.opens.localeCompare(b.opens)),
    );
  });

  it('GET /api/config/terms answers the sanitised terms as text/plain', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/config/terms' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toContain('<h2>');
    expect(response.body.length).toBeGreaterThan(200);
  });

  it('GET /api/assets/translations answers the overlay of exactly that locale, {} for one without', async () => {
    const auResponse = await server.app.inject({ method: 'GET', url: '/api/assets/translations?lang=en-AU' });
    expect(auResponse.statusCode).toBe(200);
    expect(auResponse.json()).toEqual(demo.provider.translations['en-AU']);
    const none = await server.app.inject({ method: 'GET', url: '/api/assets/translations?lang=en-CA' });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({});
  });

  it('GET /api/assets/translations rejects a missing or malformed lang with 400 validation_failed', async () => {
    for (const url of ['/api/assets/translations', '/api/assets/translations?lang=%3Cscript%3E']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(ApiErrorBodySchema.parse(response.json())).toMatchObject({ code: 'validation_failed' });
    }
  });

  it.each(APPLICATION_IMAGES)('GET /api/assets/application/%s answers the image bytes with their real type', async (name) => {
    const response = await server.app.inject({ method: 'GET', url: `/api/assets/application/${name}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    const file = demo.provider.images[name];
    if (file === undefined) throw new Error(`demo provider has no ${name}`);
    expect(response.rawPayload.equals(readFileSync(join(DEMO_PROVIDER_DIR, 'images', file)))).toBe(true);
  });

  it('answers 304 for an application image the browser already has (ETag)', async () => {
    const first = await server.app.inject({ method: 'GET', url: '/api/assets/application/favicon' });
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const second = await server.app.inject({
      method: 'GET',
      url: '/api/assets/application/favicon',
      headers: { 'if-none-match': String(etag) },
    });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
  });

  it('rejects an unknown image name with 400 and answers 404 JSON for a known one the provider lacks', async () => {
    const unknown = await server.app.inject({ method: 'GET', url: '/api/assets/application/passwd' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'validation_failed' });
    await server.db.query(`delete from application_image where name = 'branding_logo'`);
    const missing = await server.app.inject({ method: 'GET', url: '/api/assets/application/branding_logo' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(ApiErrorBodySchema.parse(missing.json())).toEqual({
      code: 'not_found',
      message: 'The provider has no branding_logo image.',
    });
  });
});

describe.each(backends())('sanitising configured HTML on %s', (backend) => {
  const server = useTestApp({ backend });
  const hostile =
    '<p>Welcome</p><script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">bad</a>' +
    '<a href="https://ok.example/page" target="_blank" onclick="alert(4)">good</a><style>body{display:none}</style>' +
    '<iframe src="https://evil.example"></iframe><p style="color:red" class="x">styled</p>';

  beforeAll(async () => {
    await server.db.query(
      `update provider set
         radiology_config = radiology_config || jsonb_build_object('about', $1::text, 'contact', $1::text, 'customFooter', $1::text),
         app_config = app_config || jsonb_build_object('bannerHtml', $1::text),
         terms_html = $1`,
      [hostile],
    );
  });

  function expectClean(html: string | null): void {
    expect(html).not.toBeNull();
    const text = html ?? '';
    for (const danger of ['<script', 'alert(', 'onerror', 'onclick', 'javascript:', '<img', '<style', '<iframe', 'style=']) {
      expect(text, danger).not.toContain(danger);
    }
    expect(text).toContain('<p>Welcome</p>');
    expect(text).toContain('<a href="https://ok.example/page" target="_blank" rel="noopener noreferrer">good</a>');
    expect(text).toContain('<p>styled</p>');
  }

  it('removes script, event handlers, javascript: links and styles from about, contact, footer, banner and terms', async () => {
    const bootstrap = BootstrapConfigSchema.parse((await server.app.inject({ method: 'GET', url: '/api/config/bootstrap' })).json());
    expectClean(bootstrap.radiology.about);
    expectClean(bootstrap.radiology.contact);
    expectClean(bootstrap.radiology.customFooter);
    expectClean(bootstrap.app.bannerHtml);
    const radiology = RadiologyConfigSchema.parse((await server.app.inject({ method: 'GET', url: '/api/config/radiology' })).json());
    expectClean(radiology.about);
    expectClean((await server.app.inject({ method: 'GET', url: '/api/config/terms' })).body);
  });

  it('answers 503 service_unavailable while there is no provider configuration', async () => {
    await server.db.query('delete from provider');
    for (const url of ['/api/config/bootstrap', '/api/config/app', '/api/config/terms']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(503);
      expect(ApiErrorBodySchema.parse(response.json()).code).toBe('service_unavailable');
    }
  });
});
