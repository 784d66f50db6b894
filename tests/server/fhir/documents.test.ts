import type { Binary, Bundle, CapabilityStatement, DiagnosticReport, DocumentReference } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/database';
import { HARRIET, jpeg, MINIMAL_PDF } from '../modules/attachments/attachments-kit';
import { setOtpRequired } from '../modules/patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV, STUDY_UID } from '../modules/results/results-kit';
import { bookAsNewPatient, entries, sha256, upload, type Booked } from './helpers/documents-kit';
import { expectValidR4 } from './helpers/r4-validation';
import { useFhirServer } from './helpers/fhir-server';

// A booking's documents (DocumentReference), the released reports (DiagnosticReport) and their
// bytes (Binary) through fhir-kit-client over real HTTP with demo-provider tokens. The data is
// made as people make it: a booking through the booking API, documents uploaded by the signed-in
// patient, reports delivered as the RIS delivers them.

const HOUR = 60 * 60_000;
const ALL_SCOPES = 'system/DocumentReference.rs system/DiagnosticReport.rs system/Binary.r';

describe.each(backends())('on %s', (backend) => {
  const fixture = useFhirServer(backend, INTEGRATION_ENV);
  let liz: Booked;
  let referralTypeId: string;

  const get = async (url: string, token: string, accept?: string): Promise<Response> =>
    fetch(url.startsWith('http') ? url : `${fixture.base()}${url}`, {
      headers: { authorization: `Bearer ${token}`, ...(accept === undefined ? {} : { accept }) },
    });
  const search = async <T>(token: string, resourceType: string, searchParams: Record<string, string | string[] | number>) => {
    const bundle = (await fixture.fhirClient(token).search({ resourceType, searchParams })) as unknown as Bundle;
    expectValidR4(bundle);
    return { bundle, found: entries<T>(bundle) };
  };

  beforeAll(async () => {
    await setOtpRequired(fixture.server.db, false);
    const [row] = await fixture.server.db.query<{ id: string }>(`select id::text as id from document_type where code = 'REFERRAL'`);
    referralTypeId = row?.id ?? '';
    liz = await bookAsNewPatient(fixture.server, '1984-02-11');
  });

  describe('DocumentReference', () => {
    it('serves an uploaded referral: read, search by patient, type and date, valid R4, no booking key', async () => {
      const token = await fixture.token(ALL_SCOPES);
      const id = await upload(
        fixture.server,
        liz,
        { name: 'referral.pdf', type: 'application/pdf', bytes: MINIMAL_PDF },
        { documentTypeId: referralTypeId, referralDate: '2026-01-05', referringDoctor: 'Dr Amelia Nguyen' },
      );
      const document = (await fixture.fhirClient(token).read({ resourceType: 'DocumentReference', id })) as unknown as DocumentReference;
      expectValidR4(document);
      expect(document).toMatchObject({
        status: 'current',
        subject: { reference: `Patient/${liz.patientId}` },
        type: { coding: [{ system: 'urn:radiology-portal/document-type', code: 'REFERRAL' }] },
        category: [{ coding: [{ system: 'http://loinc.org', code: '57133-1' }] }],
        author: [{ display: 'Dr Amelia Nguyen' }],
        context: { related: liz.appointmentIds.map((appointment) => ({ reference: `Appointment/${appointment}` })) },
      });
      expect(document.description).toContain('2026-01-05');
      const attachment = document.content[0]?.attachment;
      expect(attachment).toMatchObject({
        contentType: 'application/pdf',
        title: 'referral.pdf',
        url: `${fixture.base()}/Binary/attachment-${id}`,
      });
      expect(attachment?.hash).toBeUndefined();
      expect(JSON.stringify(document)).not.toContain(liz.bookingKey);

      const byPatient = await search<DocumentReference>(token, 'DocumentReference', { patient: `Patient/${liz.patientId}` });
      expect(byPatient.found.map((found) => found.id)).toContain(id);
      expect(JSON.stringify(byPatient.bundle)).not.toContain(liz.bookingKey);
      for (const found of byPatient.found) expect(found.subject?.reference).toBe(`Patient/${liz.patientId}`);
      const bySubject = await search<DocumentReference>(token, 'DocumentReference', { subject: liz.patientId, type: 'REFERRAL' });
      expect(bySubject.found.map((found) => found.id)).toContain(id);
      const otherType = await search(token, 'DocumentReference', { patient: `Patient/${liz.patientId}`, type: 'urn:other|REFERRAL' });
      expect(otherType.found).toEqual([]);
      const created = document.date ?? '';
      const inRange = await search(token, 'DocumentReference', { _id: id, date: [`ge${created}`, `le${created}`] });
      expect(inRange.found).toHaveLength(1);
      const later = await search(token, 'DocumentReference', { _id: id, date: `gt${created}` });
      expect(later.found).toEqual([]);
    });

    it('serves a booking request’s document: its patient, no appointment', async () => {
      const token = await fixture.token(ALL_SCOPES);
      // The seed's booking request whose stored referral moved into file storage at start.
      const [row] = await fixture.server.db.query<{ id: string; patient_id: string; owner_key: string }>(
        `select a.id::text as id, r.patient_id::text as patient_id, a.owner_key from attachment a
           join booking_request r on r.booking_key = a.owner_key
          where a.owner_type = 'BOOKING_REQUEST' and a.owner_key = $1 and a.scan_status = 'CLEAN' limit 1`,
        [HARRIET.bookingKey],
      );
      const document = (await fixture
        .fhirClient(token)
        .read({ resourceType: 'DocumentReference', id: row?.id ?? '' })) as unknown as DocumentReference;
      expectValidR4(document);
      expect(document.subject?.reference).toBe(`Patient/${row?.patient_id ?? ''}`);
      expect(document.context).toBeUndefined();
      expect(JSON.stringify(document)).not.toContain(HARRIET.bookingKey);
      const found = await search<DocumentReference>(token, 'DocumentReference', { patient: row?.patient_id ?? '', type: 'REFERRAL' });
      expect(found.found.map((entry) => entry.id)).toContain(row?.id);
    });

    it('serves no document in quarantine: its read and Binary are 404 and searches leave it out', async () => {
      const token = await fixture.token(ALL_SCOPES);
      const id = await upload(fixture.server, liz, { name: 'card.jpg', type: 'image/jpeg', bytes: await jpeg(200, 100) });
      // The virus scanner being down keeps an upload in quarantine; its state is set here as the scanner would leave it.
      await fixture.server.db.query(`update attachment set scan_status = 'QUARANTINED' where id = $1::uuid`, [id]);
      expect((await get(`/DocumentReference/${id}`, token)).status).toBe(404);
      expect((await get(`/Binary/attachment-${id}`, token)).status).toBe(404);
      const found = await search<DocumentReference>(token, 'DocumentReference', { patient: `Patient/${liz.patientId}`, _count: 100 });
      expect(found.found.map((document) => document.id)).not.toContain(id);
      expect((await search(token, 'DocumentReference', { _id: id })).found).toEqual([]);
    });

    it('pages a patient’s documents stably while one is uploaded between pages: none repeats, none is skipped', async () => {
      const token = await fixture.token(ALL_SCOPES);
      const paged = await bookAsNewPatient(fixture.server, '1990-06-30');
      const ids: string[] = [];
      for (const name of ['a.pdf', 'b.pdf', 'c.pdf']) {
        ids.push(await upload(fixture.server, paged, { name, type: 'application/pdf', bytes: MINIMAL_PDF }));
        fixture.server.clock.advance(1000);
      }
      const client = fixture.fhirClient(token);
      const first = await search<DocumentReference>(token, 'DocumentReference', { patient: `Patient/${paged.patientId}`, _count: 2 });
      expect(first.found).toHaveLength(2);
      const inserted = await upload(fixture.server, paged, { name: 'd.pdf', type: 'application/pdf', bytes: MINIMAL_PDF });
      const seen = first.found.map((document) => document.id);
      let page: Bundle | undefined = first.bundle;
      while (page?.link?.some((link) => link.relation === 'next') === true) {
        page = (await client.nextPage({ bundle: page as never })) as unknown as Bundle;
        expectValidR4(page);
        seen.push(...entries<DocumentReference>(page).map((document) => document.id));
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.slice(0, 3)).toEqual(ids);
      expect(seen).toContain(inserted);
    });
  });

  describe('DiagnosticReport', () => {
    it('serves a released report and not one before its release: read, search, valid R4', async () => {
      const token = await fixture.token(ALL_SCOPES);
      const now = fixture.server.clock.now().getTime();
      const released = await deliverReport(fixture.server.app, fixture.server.db, liz.bookingKey, {
        accessionNumber: 'FHIR-ACC-1',
        releaseAt: new Date(now - HOUR).toISOString(),
      });
      const waiting = await deliverReport(fixture.server.app, fixture.server.db, liz.bookingKey, {
        accessionNumber: 'FHIR-ACC-2',
        releaseAt: new Date(now + 10 * 60_000).toISOString(),
        study: null,
      });
      const report = (await fixture
        .fhirClient(token)
        .read({ resourceType: 'DiagnosticReport', id: released })) as unknown as DiagnosticReport;
      expectValidR4(report);
      expect(report).toMatchObject({
        status: 'final',
        identifier: [{ system: 'urn:radiology-portal/accession-number', value: 'FHIR-ACC-1' }],
        category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'RAD' }] }],
        code: { coding: [{ system: 'urn:radiology-portal/exam-code' }] },
        subject: { reference: `Patient/${liz.patientId}` },
        imagingStudy: [{ identifier: { system: 'urn:dicom:uid', value: `urn:oid:${STUDY_UID}` } }],
      });
      expect(report.issued).toBe(new Date(now - HOUR).toISOString());
      const text = report.presentedForm?.find((form) => form.contentType?.startsWith('text/plain'));
      expect(Buffer.from(text?.data ?? '', 'base64').toString('utf8')).toContain('Impression');
      expect(report.presentedForm?.find((form) => form.contentType === 'application/pdf')?.url).toBe(
        `${fixture.base()}/Binary/report-${released}`,
      );
      expect(JSON.stringify(report)).not.toContain('Dr Amelia Nguyen');

      expect((await get(`/DiagnosticReport/${waiting}`, token)).status).toBe(404);
      expect((await get(`/Binary/report-${waiting}`, token)).status).toBe(404);
      const byPatient = await search<DiagnosticReport>(token, 'DiagnosticReport', { patient: `Patient/${liz.patientId}` });
      expect(byPatient.found.map((found) => found.id)).toEqual([released]);
      const queries: Array<[Record<string, string | string[]>, string[]]> = [
        [{ identifier: 'urn:radiology-portal/accession-number|FHIR-ACC-1' }, [released]],
        [{ identifier: 'FHIR-ACC-2' }, []],
        [{ subject: `Patient/${liz.patientId}`, status: 'final' }, [released]],
        [{ subject: `Patient/${liz.patientId}`, status: 'preliminary' }, []],
        [{ patient: liz.patientId, date: `ge${report.effectiveDateTime ?? ''}`, issued: `lt${new Date(now).toISOString()}` }, [released]],
        [{ patient: liz.patientId, date: `lt${report.effectiveDateTime ?? ''}` }, []],
      ];
      for (const [searchParams, expected] of queries)
        expect((await search<DiagnosticReport>(token, 'DiagnosticReport', searchParams)).found.map((found) => found.id)).toEqual(expected);

      // From its release time on, the waiting report is there.
      fixture.server.clock.advance(11 * 60_000);
      try {
        const later = await search<DiagnosticReport>(await fixture.token(ALL_SCOPES), 'DiagnosticReport', { patient: liz.patientId });
        expect(later.found.map((found) => found.id)).toEqual([released, waiting]);
        expect(later.found[1]?.imagingStudy).toBeUndefined();
      } finally {
        fixture.server.clock.advance(-11 * 60_000);
      }
    });
  });

  describe('Binary', () => {
    it('answers the exact bytes, or a valid Binary resource when FHIR JSON is asked for; no search', async () => {
      const token = await fixture.token(ALL_SCOPES);
      const photo = await jpeg(320, 200);
      const id = await upload(fixture.server, liz, { name: 'implant-card.jpg', type: 'image/jpeg', bytes: photo });
      const document = (await fixture.fhirClient(token).read({ resourceType: 'DocumentReference', id })) as unknown as DocumentReference;
      const attachment = document.content[0]?.attachment;
      const raw = await get(attachment?.url ?? '', token);
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toBe(attachment?.contentType);
      const bytes = new Uint8Array(await raw.arrayBuffer());
      expect(bytes.length).toBe(attachment?.size);
      const stored = attachment?.extension?.find((extension) => extension.url.endsWith('/sha256'))?.valueString;
      const [row] = await fixture.server.db.query<{ sha256: string }>(`select sha256 from attachment where id = $1::uuid`, [id]);
      expect(sha256(bytes)).toBe(row?.sha256);
      expect(stored).toBe(row?.sha256);

      const resource = (await fixture.fhirClient(token).read({ resourceType: 'Binary', id: `attachment-${id}` })) as unknown as Binary;
      expectValidR4(resource);
      expect(resource).toMatchObject({ contentType: 'image/jpeg', securityContext: { reference: `DocumentReference/${id}` } });
      expect(sha256(Buffer.from(resource.data ?? '', 'base64'))).toBe(row?.sha256);

      const [report] = await fixture.server.db.query<{ id: string }>(
        `select id::text as id from result_report where accession_number = 'FHIR-ACC-1'`,
      );
      const pdf = await get(`/Binary/report-${report?.id ?? ''}`, token);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(sha256(new Uint8Array(await pdf.arrayBuffer()))).toBe(sha256(MINIMAL_PDF));
      const pdfResource = (await (await get(`/Binary/report-${report?.id ?? ''}`, token, 'application/fhir+json')).json()) as Binary;
      expectValidR4(pdfResource);
      expect(sha256(Buffer.from(pdfResource.data ?? '', 'base64'))).toBe(sha256(MINIMAL_PDF));

      // Neither kind's id reads the other's table, and an id of neither form is none.
      for (const wrong of [`report-${id}`, `attachment-${report?.id ?? ''}`, id, 'attachment-x'])
        expect((await get(`/Binary/${wrong}`, token)).status).toBe(404);
      const searched = await get('/Binary', token);
      expect(searched.status).toBe(404);
      expectValidR4((await searched.json()) as object);
    });
  });

  describe('access and the CapabilityStatement', () => {
    it('answers 403 to a token without the type’s scope', async () => {
      const token = await fixture.token('system/Location.rs system/DocumentReference.s');
      const [document] = (await search<DocumentReference>(token, 'DocumentReference', { patient: liz.patientId })).found;
      for (const url of [`/DocumentReference/${document?.id ?? ''}`, '/DiagnosticReport', `/Binary/attachment-${document?.id ?? ''}`]) {
        const refused = await get(url, token);
        expect(refused.status).toBe(403);
        expectValidR4((await refused.json()) as object);
      }
    });

    it('lists the new types, Binary as read only', async () => {
      const statement = (await (await fetch(`${fixture.base()}/metadata`)).json()) as CapabilityStatement;
      expectValidR4(statement);
      const resources = statement.rest?.[0]?.resource ?? [];
      const binary = resources.find((resource) => resource.type === 'Binary');
      expect(binary?.interaction).toEqual([{ code: 'read' }]);
      expect(binary?.searchParam).toBeUndefined();
      for (const type of ['DocumentReference', 'DiagnosticReport']) {
        const resource = resources.find((entry) => entry.type === type);
        expect(resource?.interaction?.map((interaction) => interaction.code)).toEqual(['read', 'search-type']);
        expect(resource?.searchParam?.map((param) => param.name)).toEqual(expect.arrayContaining(['patient', 'date', '_count']));
      }
    });
  });
});
