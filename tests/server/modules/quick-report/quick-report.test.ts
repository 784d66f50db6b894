import { beforeAll, describe, expect, it } from 'vitest';
import { ImageViewerResponseSchema } from '@contract/api/image-viewer';
import { ImageGenerateAnswerSchema, ReferrerReportSchema } from '@contract/api/quick-report';
import { DEMO_GENERATION_MS, demoGeneratedStudyUid, PATIENT_IMAGE_LINK } from '../../../../src-server/modules/results/public';
import { createSignedLinks, parseSignedLinkKeys } from '../../../../src-server/platform/signed-links';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { client, LIAM } from '../patient-access/sign-in-kit';
import { INTEGRATION_ENV, INTEGRATION_TOKEN } from '../results/results-kit';
import { deliverForReferrer, REFERRER } from './quick-report-kit';

// The referrer's quick report at the routes (docs/rules/referrers.md#quick-report), on a real
// database: the imsec from the report-ready mail reads the report and its PDF from delivery on;
// a report delivered without a study has its images asked for, and the demo PACS (or the RIS/PACS
// through the integration route) completes them; bad, patient and expired links are refused.

const DAY = 86_400_000;
const KEY = `k1:${Buffer.alloc(32, 7).toString('base64url')}`;
const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

describe.each(backends())('quick report on %s', (backend) => {
  const server = useTestApp({
    backend,
    env: { ...INTEGRATION_ENV, SIGNED_LINK_KEYS: KEY, IMAGE_REPOSITORY_SOURCES: 'archive=PACS@https://archive.example.com/portal' },
  });
  let withStudy: { reportId: string; imsec: string };
  let withoutStudy: { reportId: string; imsec: string };

  beforeAll(async () => {
    const nextWeek = new Date(server.clock.now().getTime() + 7 * DAY).toISOString();
    withStudy = await deliverForReferrer(server.app, server.db, LIAM.bookingKey, { accessionNumber: 'ACC-QR-1', releaseAt: nextWeek });
    withoutStudy = await deliverForReferrer(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-QR-2',
      releaseAt: nextWeek,
      study: null,
    });
  });

  const get = (path: string, headers: Record<string, string> = {}) => client(server.app).request('GET', path, undefined, headers);
  const report = (imsec: string) => get(`/api/image_viewer_link/report?imsec=${encodeURIComponent(imsec)}`);
  const viewer = (imsec: string, source = 'default') =>
    get(`/api/image_viewer?input=${encodeURIComponent(imsec)}&repositorySource=${source}`);
  const generate = (imsec: string, accessionNumber: string) =>
    server.app.inject({
      method: 'POST',
      url: `/api/image_viewer/generate?${new URLSearchParams({ imsec, accessionNumber, repositorySource: 'default', repositorySourceId: 'study-7' }).toString()}`,
    });

  it('reads the report before the patient may, with the patient named for the doctor, and audits the opening', async () => {
    const answer = await report(withStudy.imsec);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['cache-control']).toContain('no-store');
    const body = ReferrerReportSchema.parse(answer.json());
    expect(body).toMatchObject({
      accessionNumber: 'ACC-QR-1',
      patient: { firstName: 'Liam', dateOfBirth: LIAM.dateOfBirth },
      referrerName: REFERRER.name,
      images: 'AVAILABLE',
      pacsUrl: null,
    });
    expect(body.reportText).toContain('no internal derangement');
    const [audit] = await server.db.query<{ actor: string; details: { accessionNumber: string } }>(
      `select actor, details from audit_log where action = 'result.referrer_report_opened' order by id desc limit 1`,
    );
    expect(audit).toMatchObject({ actor: 'referrer_link', details: { accessionNumber: 'ACC-QR-1' } });

    const pdf = await get(`/api/image_viewer_link/report.pdf?imsec=${encodeURIComponent(withStudy.imsec)}&download=true`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="report-ACC-QR-1\.pdf"/);
  });

  it("asks for a study's images once, and the demo PACS completes them after its delay", async () => {
    expect(ReferrerReportSchema.parse((await report(withoutStudy.imsec)).json()).images).toBe('NOT_GENERATED');
    expect(ImageViewerResponseSchema.parse((await viewer(withoutStudy.imsec)).json())).toMatchObject({
      url: null,
      imageViewerLinkStatus: 'ACTIVE',
    });

    // The accession number must be the link's own report.
    const other = await generate(withoutStudy.imsec, 'ACC-QR-1');
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ code: 'accession_mismatch' });

    const first = await generate(withoutStudy.imsec, 'ACC-QR-2');
    expect(first.statusCode, first.body).toBe(202);
    expect(ImageGenerateAnswerSchema.parse(first.json()).images).toBe('GENERATING');
    expect((await generate(withoutStudy.imsec, 'ACC-QR-2')).json()).toEqual({ images: 'GENERATING' });
    const rows = await server.db.query<{ repository_source_id: string }>(
      `select repository_source_id from image_generation where report_id = $1`,
      [withoutStudy.reportId],
    );
    expect(rows).toEqual([{ repository_source_id: 'study-7' }]);

    server.clock.advance(DEMO_GENERATION_MS);
    const opened = ImageViewerResponseSchema.parse((await viewer(withoutStudy.imsec)).json());
    expect(opened.url).toContain(`study=${demoGeneratedStudyUid('ACC-QR-2')}`);
    expect(ReferrerReportSchema.parse((await report(withoutStudy.imsec)).json()).images).toBe('AVAILABLE');
    expect((await generate(withoutStudy.imsec, 'ACC-QR-2')).json()).toEqual({ images: 'AVAILABLE' });
  });

  it('takes the outcome from the RIS/PACS: a failure, asked again, then the study', async () => {
    const third = await deliverForReferrer(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-QR-3',
      releaseAt: new Date(server.clock.now().getTime() + DAY).toISOString(),
      study: null,
    });
    const complete = (body: object) =>
      server.app.inject({
        method: 'POST',
        url: '/api/integration/results/ACC-QR-3/images',
        headers: { authorization: `Bearer ${INTEGRATION_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    // Nothing was asked yet.
    expect((await complete({ failure: 'Study not found in the archive.' })).statusCode).toBe(404);
    await generate(third.imsec, 'ACC-QR-3');
    expect((await complete({ failure: 'Study not found in the archive.' })).json()).toEqual({ images: 'FAILED' });
    expect(ReferrerReportSchema.parse((await report(third.imsec)).json()).images).toBe('FAILED');
    expect(ImageViewerResponseSchema.parse((await viewer(third.imsec)).json()).images).toBe('FAILED');
    expect((await generate(third.imsec, 'ACC-QR-3')).json()).toEqual({ images: 'GENERATING' });
    expect((await complete({ studyInstanceUid: '1.2.3.4.5' })).json()).toEqual({ images: 'AVAILABLE' });
    expect((await complete({ studyInstanceUid: '1.2.3;drop' })).statusCode).toBe(400);
    const unauthorised = await server.app.inject({ method: 'POST', url: '/api/integration/results/ACC-QR-3/images', payload: {} });
    expect(unauthorised.statusCode).toBe(403);
  });

  it("sends a link naming a PACS-preference archive to that archive's portal, and refuses an unknown archive", async () => {
    expect(ImageViewerResponseSchema.parse((await viewer(withStudy.imsec, 'archive')).json())).toMatchObject({
      imageViewerLinkStatus: 'ACTIVE',
      preference: 'PACS',
      pacsUrl: 'https://archive.example.com/portal',
    });
    const unknown = await viewer(withStudy.imsec, 'elsewhere');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'unknown_repository_source' });
  });

  it('refuses a changed link and a patient-audience link (403, audited), and an expired one (410; a PDF tab goes to the deny page)', async () => {
    const changed = `${withStudy.imsec.slice(0, -1)}${withStudy.imsec.endsWith('A') ? 'B' : 'A'}`;
    expect((await report(changed)).statusCode).toBe(403);
    // The patient's own link to the same report opens the patient's images, never the referrer's page.
    const patientLink = createSignedLinks({ keys: parseSignedLinkKeys(KEY), clock: server.clock }).sign({
      ...PATIENT_IMAGE_LINK,
      subject: withStudy.reportId,
      ttlMs: 60_000,
    });
    expect((await report(patientLink)).statusCode).toBe(403);
    const refusals = await server.db.query(`select 1 from audit_log where action = 'result.referrer_link_refused'`);
    expect(refusals.length).toBeGreaterThan(0);

    server.clock.advance(31 * DAY);
    try {
      const expired = await report(withStudy.imsec);
      expect(expired.statusCode).toBe(410);
      expect(expired.json()).toMatchObject({ code: 'image_link_expired' });
      const tab = await get(`/api/image_viewer_link/report.pdf?imsec=${encodeURIComponent(withStudy.imsec)}`, NAVIGATION);
      expect(tab.statusCode).toBe(303);
      expect(tab.headers.location).toBe('/deny?resultsExpired=true');
    } finally {
      server.clock.advance(-31 * DAY);
    }
  });
});
