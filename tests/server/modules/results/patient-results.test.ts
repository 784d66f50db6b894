import { beforeAll, describe, expect, it } from 'vitest';
import { PatientResultSchema } from '@contract/api/results';
import { ImageViewerResponseSchema } from '@contract/api/image-viewer';
import { join } from 'node:path';
import { createAttachmentsService } from '../../../../src-server/modules/attachments/public';
import { sweepAttachmentOrphans } from '../../../../src-server/modules/attachments/jobs';
import { configuredStorage } from '../../../../src-server/platform/storage';
import { noVirusScanner } from '../../../../src-server/platform/virus-scan';
import { MINIMAL_PDF } from '../attachments/attachments-kit';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { AMELIA, authenticate, client, GRACE, LIAM, setOtpRequired, type Client } from '../patient-access/sign-in-kit';
import { REFERRER_CLAIMS, signedInStaff, useTestIdentityProvider } from '../staff-access/identity-kit';
import { deliverReport, getResult, INTEGRATION_ENV, resultsSignIn, STUDY_UID } from './results-kit';

// The patient's result page on a real database (docs/rules/results.md#result-page): the results
// sign-in always asks for the one-time code, a session reads only its own booking's result, the
// report is shown only from its release time, and every report, PDF and image opening is audited.

describe.each(backends())('patient results on %s', (backend) => {
  const identity = useTestIdentityProvider();
  const server = useTestApp({ backend, env: INTEGRATION_ENV, identity: () => identity.options });
  let liam: Client;

  beforeAll(async () => {
    const now = server.clock.now().getTime();
    await deliverReport(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-R-1',
      releaseAt: new Date(now - 86_400_000).toISOString(),
    });
    await deliverReport(server.app, server.db, AMELIA.bookingKey, {
      accessionNumber: 'ACC-R-2',
      releaseAt: new Date(now + 5 * 86_400_000).toISOString(),
      study: null,
    });
    liam = await resultsSignIn(server.app, server.db, LIAM);
  });

  const audited = async (action: string): Promise<number> => {
    const [row] = await server.db.query<{ n: number }>(`select count(*)::int as n from audit_log where action = $1`, [action]);
    return row?.n ?? 0;
  };

  it('shows a released report with its text, referrer, PDF size and an image viewer link, and audits the opening', async () => {
    const before = await audited('result.report_opened');
    const response = await getResult(liam, LIAM.bookingKey);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    const result = PatientResultSchema.parse(response.json());
    if (result.state !== 'RELEASED') throw new Error(`expected RELEASED, got ${result.state}`);
    expect(result).toMatchObject({
      accessionNumber: 'ACC-R-1',
      referrerName: 'Dr Amelia Nguyen',
      pdfSizeBytes: MINIMAL_PDF.length,
      appointment: { examName: expect.any(String), clinicName: expect.any(String), patientFirstName: 'Liam' },
    });
    expect(result.reportText).toContain('Impression: no internal derangement.');
    expect(result.imageViewerLink).toMatch(/^v1\./);
    expect(await audited('result.report_opened')).toBe(before + 1);
  });

  it('says when a report will be released instead of showing it, and keeps its PDF back', async () => {
    const amelia = await resultsSignIn(server.app, server.db, AMELIA, 'PATIENT_PORTAL');
    const result = PatientResultSchema.parse((await getResult(amelia, AMELIA.bookingKey)).json());
    expect(result.state).toBe('NOT_RELEASED');
    if (result.state === 'NOT_RELEASED') expect(new Date(result.releaseAt).getTime()).toBe(server.clock.now().getTime() + 5 * 86_400_000);
    expect(JSON.stringify(result)).not.toContain('derangement');
    const pdf = await amelia.request('GET', `/api/results/${AMELIA.bookingKey}/report.pdf`);
    expect(pdf.statusCode).toBe(404);
    expect(pdf.json()).toMatchObject({ code: 'result_not_available' });
  });

  it('answers NOT_AVAILABLE before the RIS has delivered a report', async () => {
    const grace = await resultsSignIn(server.app, server.db, GRACE);
    const result = PatientResultSchema.parse((await getResult(grace, GRACE.bookingKey)).json());
    expect(result).toMatchObject({ state: 'NOT_AVAILABLE', appointment: { patientFirstName: 'Grace' } });
  });

  it('serves the released PDF inline and as a download, sandboxed and never cached, and audits both', async () => {
    const before = await audited('result.pdf_opened');
    const inline = await liam.request('GET', `/api/results/${LIAM.bookingKey}/report.pdf`);
    expect(inline.statusCode).toBe(200);
    expect(inline.rawPayload.equals(MINIMAL_PDF)).toBe(true);
    expect(inline.headers).toMatchObject({ 'content-type': 'application/pdf', 'x-content-type-options': 'nosniff' });
    expect(inline.headers['content-disposition']).toMatch(/^inline; filename="report-ACC-R-1\.pdf"/);
    expect(inline.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(inline.headers['cache-control']).toContain('no-store');
    const download = await liam.request('GET', `/api/results/${LIAM.bookingKey}/report.pdf?download=true`);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="report-ACC-R-1\.pdf"/);
    expect((await liam.request('GET', `/api/results/${LIAM.bookingKey}/report.pdf?download=yes`)).statusCode).toBe(400);
    expect(await audited('result.pdf_opened')).toBe(before + 2);
  });

  it("keeps delivered report PDFs through the file storage's orphan sweep (the storage is shared with attachments)", async () => {
    // The app's own storage: the folder under its DATA_DIR.
    const storage = configuredStorage({ s3: null, dataDir: server.dataDir });
    const attachments = createAttachmentsService({
      db: server.db,
      clock: server.clock,
      storage,
      scanner: noVirusScanner,
      workDir: join(server.dataDir, 'upload-work'),
    });
    await sweepAttachmentOrphans(attachments, storage, join(server.dataDir, 'upload-work'), new Date(Date.now() + 86_400_000), 0);
    const pdf = await liam.request('GET', `/api/results/${LIAM.bookingKey}/report.pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
  });

  it('refuses a session of another booking, an appointment session and no session alike (401)', async () => {
    for (const path of [`/api/results/${AMELIA.bookingKey}`, `/api/results/${AMELIA.bookingKey}/report.pdf`])
      expect((await liam.request('GET', path)).statusCode).toBe(401);
    // A PDF opened in a tab without the session goes to the result page (which signs in), not to the JSON error;
    // a script's call still gets the JSON.
    const tab = await liam.request('GET', `/api/results/${AMELIA.bookingKey}/report.pdf`, undefined, { 'sec-fetch-mode': 'navigate' });
    expect(tab.statusCode).toBe(303);
    expect(tab.headers.location).toBe(`/appointments/${AMELIA.bookingKey}/result`);
    const legacyTab = await liam.request('GET', `/api/results/${AMELIA.bookingKey}/report.pdf`, undefined, { accept: 'text/html' });
    expect(legacyTab.headers.location).toBe(`/appointments/${AMELIA.bookingKey}/result`);
    const scripted = await liam.request('GET', `/api/results/${AMELIA.bookingKey}/report.pdf`, undefined, { 'sec-fetch-mode': 'cors' });
    expect(scripted.statusCode).toBe(401);
    expect(scripted.headers['content-type']).toContain('application/json');
    // With the provider's otpRequired off, an appointment sign-in is complete without a code, and still opens no result.
    await setOtpRequired(server.db, false);
    try {
      const appointmentOnly = client(server.app);
      const signedIn = await authenticate(appointmentOnly, LIAM);
      expect(signedIn.json<{ otpRequired: boolean }>().otpRequired).toBe(false);
      expect((await getResult(appointmentOnly, LIAM.bookingKey)).statusCode).toBe(401);
    } finally {
      await setOtpRequired(server.db, true);
    }
    expect((await getResult(client(server.app), LIAM.bookingKey)).statusCode).toBe(401);
  });

  it("keeps a results sign-in half way until the one-time code is given, even with the provider's otpRequired off", async () => {
    await setOtpRequired(server.db, false);
    const browser = client(server.app);
    const first = await browser.request('POST', '/api/patient-access/authenticate', {
      bookingKey: LIAM.bookingKey,
      type: 'APPOINTMENT_RESULTS',
      dateOfBirth: LIAM.dateOfBirth,
    });
    await setOtpRequired(server.db, true);
    expect(first.json()).toMatchObject({ otpRequired: true, otpChannels: ['EMAIL'] });
    expect((await getResult(browser, LIAM.bookingKey)).statusCode).toBe(401);
  });

  describe('the image viewer link', () => {
    const imageLink = async (): Promise<string> => {
      const result = PatientResultSchema.parse((await getResult(liam, LIAM.bookingKey)).json());
      if (result.state !== 'RELEASED' || result.imageViewerLink === null) throw new Error('no image viewer link');
      return result.imageViewerLink;
    };
    const open = (input: string) => client(server.app).request('GET', `/api/image_viewer?input=${encodeURIComponent(input)}`);

    it('opens the demo viewer for the demo provider (ACTIVE) with the study and its own signed link, and audits it', async () => {
      const before = await audited('result.images_opened');
      const response = await open(await imageLink());
      expect(response.statusCode, response.body).toBe(200);
      const answer = ImageViewerResponseSchema.parse(response.json());
      expect(answer).toMatchObject({ imageViewerLinkStatus: 'ACTIVE', preference: 'VIEWER', redirectUrl: null, pacsUrl: null });
      const url = new URL(answer.url ?? '', 'https://portal.example');
      expect(url.pathname).toBe('/demo-viewer');
      expect(url.searchParams.get('study')).toBe(STUDY_UID);
      expect(url.searchParams.get('token')).toMatch(/^v1\./);
      expect(await audited('result.images_opened')).toBe(before + 1);
    });

    it('answers EXPIRED with the deny page once the link has run out', async () => {
      const input = await imageLink();
      server.clock.advance(16 * 60_000);
      try {
        const answer = ImageViewerResponseSchema.parse((await open(input)).json());
        expect(answer).toMatchObject({ imageViewerLinkStatus: 'EXPIRED', redirectUrl: '/deny?resultsExpired=true', url: null });
        const direct = await client(server.app).request('POST', '/api/image_viewer/direct', { input });
        expect(direct.statusCode).toBe(403);
      } finally {
        server.clock.advance(-16 * 60_000);
      }
    });

    it('refuses a changed link, the demo viewer link used as an image link, and junk with 403 user_not_have_access_to_images', async () => {
      const input = await imageLink();
      const flipped = `${input.slice(0, -2)}${input.at(-2) === 'A' ? 'B' : 'A'}${input.at(-1) ?? ''}`;
      const demoToken = new URL(ImageViewerResponseSchema.parse((await open(input)).json()).url ?? '', 'https://x').searchParams.get(
        'token',
      );
      for (const bad of [flipped, demoToken ?? '', 'not-a-link']) {
        const response = await open(bad);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: 'user_not_have_access_to_images' });
      }
      expect((await open('x'.repeat(1025))).statusCode).toBe(400);
    });

    it('gives the viewer address directly for a live link', async () => {
      const response = await client(server.app).request('POST', '/api/image_viewer/direct', {
        input: await imageLink(),
        username: 'Dr Who',
        email: 'who@example.com',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ url: string }>().url).toMatch(/^\/demo-viewer\?study=/);
    });

    it('names the signed-in external user in the audit by their identity, not by the words they send', async () => {
      const referrer = await signedInStaff(server.app, identity, REFERRER_CLAIMS, server.clock.now());
      const response = await referrer.request('POST', '/api/image_viewer/direct', { input: await imageLink(), username: 'Someone Else' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ url: string }>().url).toMatch(/^\/demo-viewer\?study=/);
      const [row] = await server.db.query<{ actor: string; details: { openedBy?: string; via: string } }>(
        `select actor, details from audit_log where action = 'result.images_opened' order by id desc limit 1`,
      );
      expect(row).toMatchObject({
        actor: 'external_user',
        details: { via: 'direct', openedBy: expect.stringMatching(/^staff:[0-9a-f]{16}$/) },
      });
      expect(JSON.stringify(row)).not.toContain('Someone Else');
    });
  });
});
