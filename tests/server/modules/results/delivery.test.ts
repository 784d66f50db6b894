import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResultDeliveryAnswerSchema } from '@contract/api/results';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { MINIMAL_PDF } from '../attachments/attachments-kit';
import { pdfkitPdf } from '../attachments/pdf-fixtures';

// Delivery of finalised reports by the RIS and PACS (docs/rules/results.md#delivery) on a real
// database and the app's real file storage: the machine token, strict bodies, PDFs checked by
// their bytes, and idempotency by accession number under concurrent identical posts.

const TOKEN = 'results-integration-token-0123456789abcdef';
const WRONG = 'results-integration-token-wrong-0123456789';

describe.each(backends())('results delivery on %s', (backend) => {
  const server = useTestApp({ backend, env: { INTEGRATION_API_TOKEN_SHA256: createHash('sha256').update(TOKEN).digest('hex') } });
  let appointmentId: string;

  const deliveryFor = (accessionNumber: string, overrides: Record<string, unknown> = {}) => ({
    accessionNumber,
    appointmentSlug: appointmentId,
    reportText: 'MRI LEFT KNEE. Findings: small joint effusion. No meniscal tear. Conclusion: no internal derangement.',
    reportPdfBase64: MINIMAL_PDF.toString('base64'),
    referrer: { name: 'Dr Amelia Nguyen', providerNumber: '4932751K' },
    releaseAt: '2026-03-17T00:00:00.000Z',
    study: { studyInstanceUid: '1.2.826.0.1.3680043.8.498.12345' },
    ...overrides,
  });

  const post = (body: unknown, token: string | null = TOKEN) =>
    server.app.inject({
      method: 'POST',
      url: '/api/integration/results',
      headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
      payload: JSON.stringify(body),
    });

  const reports = (accessionNumber: string) =>
    server.db.query<{ pdf_key: string; pdf_size: number; study_instance_uid: string | null }>(
      `select pdf_key, pdf_size, study_instance_uid from result_report where accession_number = $1`,
      [accessionNumber],
    );

  beforeAll(async () => {
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment order by lower(during) limit 1`);
    appointmentId = row?.id ?? '';
  });

  it('stores a delivery once: 201 created, then 200 unchanged for the same delivery, with the PDF in the file storage', async () => {
    const first = await post(deliveryFor('ACC-1001'));
    expect(first.statusCode, first.body).toBe(201);
    const created = ResultDeliveryAnswerSchema.parse(first.json());
    expect(created).toMatchObject({ accessionNumber: 'ACC-1001', outcome: 'created' });
    const again = await post(deliveryFor('ACC-1001'));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...created, outcome: 'unchanged' });

    const [stored] = await reports('ACC-1001');
    expect(stored).toMatchObject({ pdf_size: MINIMAL_PDF.length, study_instance_uid: '1.2.826.0.1.3680043.8.498.12345' });
    const [audit] = await server.db.query<{ n: number }>(`select count(*)::int as n from audit_log where action = 'result.delivered'`);
    expect(audit?.n).toBeGreaterThanOrEqual(1);
  });

  it('creates one report for 10 identical deliveries sent at once, and keeps one PDF', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(deliveryFor('ACC-2002'))));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.json<{ resultId: string }>().resultId)).size).toBe(1);
    expect(await reports('ACC-2002')).toHaveLength(1);
  });

  it('refuses a different report for a stored accession number (409) and keeps the first', async () => {
    expect((await post(deliveryFor('ACC-3003'))).statusCode).toBe(201);
    const changed = await post(deliveryFor('ACC-3003', { reportText: 'An amended text.' }));
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ code: 'result_conflict' });
    const [text] = await server.db.query<{ report_text: string }>(
      `select report_text from result_report where accession_number = 'ACC-3003'`,
    );
    expect(text?.report_text).toMatch(/^MRI LEFT KNEE/);
  });

  it('answers 403 without the integration token or with a wrong one, and stores nothing', async () => {
    expect((await post(deliveryFor('ACC-4004'), null)).statusCode).toBe(403);
    expect((await post(deliveryFor('ACC-4004'), WRONG)).statusCode).toBe(403);
    expect(await reports('ACC-4004')).toEqual([]);
  });

  it("takes a report whose footer links the provider's website (links are refused only in patients' uploads); a link with a script is still refused", async () => {
    const linked = await pdfkitPdf({ link: 'https://harbour-range-radiology.example/contact' });
    const accepted = await post(deliveryFor('ACC-LINK-1', { reportPdfBase64: linked.toString('base64') }));
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(await reports('ACC-LINK-1')).toHaveLength(1);
    const scripted = Buffer.from(
      '%PDF-1.4\n1 0 obj<</Annots[<</Subtype/Link/A<</S/URI/URI(https://x.example)>>>>]/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n%%EOF',
    );
    const refused = await post(deliveryFor('ACC-LINK-2', { reportPdfBase64: scripted.toString('base64') }));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ message: string }>().message).toContain('pdf_script');
    expect(await reports('ACC-LINK-2')).toEqual([]);
  });

  it.each([
    ['an HTML file as the PDF', { reportPdfBase64: Buffer.from('<html><script>alert(1)</script></html>').toString('base64') }],
    [
      'a PDF with JavaScript',
      {
        reportPdfBase64: Buffer.from('%PDF-1.4\n1 0 obj<</OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n%%EOF').toString('base64'),
      },
    ],
    ['an empty PDF', { reportPdfBase64: '' }],
    ['not base64', { reportPdfBase64: '%%%not base64%%%' }],
    ['an accession number with a slash', { accessionNumber: '../ACC' }],
    ['an unknown appointment', { appointmentSlug: '00000000-0000-4000-8000-000000000000' }],
    ['a bad StudyInstanceUID', { study: { studyInstanceUid: '1.2.abc' } }],
    ['an extra field', { patientName: 'Olivia Arrival' }],
    ['a release time without a zone', { releaseAt: '2026-03-17 10:00' }],
  ])('refuses %s with 400 and a message, and stores nothing', async (_case, overrides) => {
    const accession = `ACC-BAD-${randomBytes(4).toString('hex')}`;
    const refused = await post(deliveryFor(accession, overrides));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ message: string }>().message).not.toBe('');
    expect(await reports(accession)).toEqual([]);
  });
});
