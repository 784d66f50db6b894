import { beforeAll, describe, expect, it } from 'vitest';
import { PatientResultSchema } from '@contract/api/results';
import { MINIMAL_PDF } from '../modules/attachments/attachments-kit';
import { appointmentIdOf, getResult, resultsSignIn } from '../modules/results/results-kit';
import { AMELIA, GRACE, HARPER, LIAM } from '../modules/patient-access/sign-in-kit';
import { backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';
import { pdfText } from '../dev-pacs/pdf-text';
import { freePort } from './helpers/simple-hl7-peer';
import { addSegment, risMessage, sendFromRis } from './helpers/ris-sender';

// The RIS's messages to the portal, sent by a library no one here wrote (node-hl7-client, HL7
// v2.7) over MLLP to the portal's listener: an ORU^R01 becomes a result the patient can open (its
// text rendered as the PDF, or the PDF it carried), an SIU^S15 cancels the appointment and mails
// the patient; every message is answered AA, AE (with ERR: code, field, text) or AR, a message sent
// again after AA changes nothing, and nothing wrong changes anything.

const DAY_MS = 86_400_000;
const REPORT_LINES = [
  'CT CHEST WITH CONTRAST.',
  '',
  'Findings: no pulmonary embolus; lungs clear & pleura normal.',
  '',
  'Impression: normal study.',
];

/** YYYYMMDDHHMMSS+0000 of an instant. */
function hl7Utc(instant: Date): string {
  return `${instant.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;
}

describe.each(backends())('HL7 from the RIS on %s', (backend) => {
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
  });
  const server = useTestApp({
    backend,
    env: () => ({
      HL7_LISTEN_ADDRESS: `127.0.0.1:${port}`,
      HL7_RESULT_RELEASE_DAYS: '0',
      // An address that answers nothing: what the portal would tell the RIS is only queued.
      HL7_RIS_ADDRESS: '127.0.0.1:9',
    }),
  });
  let sequence = 0;
  const controlId = () => `T${Date.now().toString(36)}${(sequence += 1)}`;

  /** An ORU^R01 for an appointment, with its report as FT lines (escaped as HL7 wants) and optional extra OBX. */
  function oru(options: {
    appointmentId: string;
    accession?: string;
    status?: string;
    lines?: string[];
    pdf?: Buffer;
    reportedAt?: Date;
    id?: string;
  }) {
    const message = risMessage({ type: 'ORU', event: 'R01', structure: 'ORU_R01', controlId: options.id ?? controlId() });
    addSegment(message, 'PID', { 1: '1', 3: 'MRN-778^^^ACME^MR', 5: 'PATIENT^TEST' });
    addSegment(message, 'ORC', { 1: 'RE', 2: options.appointmentId });
    addSegment(message, 'OBR', {
      1: '1',
      2: options.appointmentId,
      ...(options.accession === '' ? {} : { 3: `${options.accession ?? 'ACC-HL7-1'}^ACME` }),
      4: 'CTCHEST^CT Chest^L',
      16: '4932751K^Nguyen^Amelia^^^Dr',
      22: hl7Utc(options.reportedAt ?? new Date(server.clock.now().getTime() - DAY_MS)),
      25: options.status ?? 'F',
      32: '2222222A&Okafor&Chidi&&&&Dr',
    });
    const escaped = (options.lines ?? REPORT_LINES).map((line) => line.replace(/&/g, '\\T\\'));
    addSegment(message, 'OBX', { 1: '1', 2: 'FT', 3: 'REPORT^Report^L', 5: escaped.join('\\.br\\'), 11: 'F' });
    if (options.pdf !== undefined)
      addSegment(message, 'OBX', {
        1: '2',
        2: 'ED',
        3: 'PDF^Report PDF^L',
        5: `ACME^AP^PDF^Base64^${options.pdf.toString('base64')}`,
        11: 'F',
      });
    addSegment(message, 'ZDS', { 1: '1.2.826.0.1.3680043.8.498.777^ACME^Application^DICOM' });
    return message;
  }

  const resultsOf = (appointmentId: string) =>
    server.db.query<{ accession_number: string; report_text: string; pdf_size: number; referrer_name: string }>(
      `select accession_number, report_text, pdf_size, referrer_name from result_report where appointment_id = $1::uuid`,
      [appointmentId],
    );
  const inbound = (id: string) =>
    server.db.query<{ ack_code: string; outcome: string; message_type: string }>(
      `select ack_code, outcome, message_type from hl7_inbound where control_id = $1`,
      [id],
    );

  it('makes an ORU^R01 written as text into a result the patient opens, its PDF rendered from the text; the same message again changes nothing', async () => {
    const appointmentId = await appointmentIdOf(server.db, GRACE.bookingKey);
    const id = controlId();
    const ack = await sendFromRis(port, oru({ appointmentId, id }));
    expect(ack, ack.raw).toMatchObject({ code: 'AA', about: id });

    const grace = await resultsSignIn(server.app, server.db, GRACE);
    const result = PatientResultSchema.parse((await getResult(grace, GRACE.bookingKey)).json());
    if (result.state !== 'RELEASED') throw new Error(`expected RELEASED, got ${result.state}`);
    expect(result).toMatchObject({ accessionNumber: 'ACC-HL7-1', referrerName: 'Dr Amelia Nguyen' });
    expect(result.reportText).toBe(REPORT_LINES.join('\n'));
    const pdf = await grace.request('GET', `/api/results/${GRACE.bookingKey}/report.pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('lungs clear & pleura normal');
    expect(text).toContain('ACC-HL7-1');
    expect(text).toContain('Chidi Okafor');

    const again = await sendFromRis(port, oru({ appointmentId, id }));
    expect(again.code).toBe('AA');
    expect(await resultsOf(appointmentId)).toHaveLength(1);
    expect(await inbound(id)).toEqual([{ ack_code: 'AA', outcome: expect.stringContaining('Result stored'), message_type: 'ORU^R01' }]);
  });

  it('keeps the PDF an ORU^R01 carries (OBX of type ED), released HL7_RESULT_RELEASE_DAYS after OBR-22', async () => {
    const appointmentId = await appointmentIdOf(server.db, LIAM.bookingKey);
    const reportedAt = new Date(Math.floor(server.clock.now().getTime() / 1000) * 1000 - 3 * DAY_MS);
    const ack = await sendFromRis(port, oru({ appointmentId, accession: 'ACC-HL7-PDF', pdf: MINIMAL_PDF, reportedAt }));
    expect(ack.code, ack.raw).toBe('AA');
    expect(await resultsOf(appointmentId)).toMatchObject([{ accession_number: 'ACC-HL7-PDF', pdf_size: MINIMAL_PDF.length }]);
    const [row] = await server.db.query<{ release_at: Date; study_instance_uid: string }>(
      `select release_at, study_instance_uid from result_report where appointment_id = $1::uuid`,
      [appointmentId],
    );
    expect(new Date(row?.release_at ?? 0).toISOString()).toBe(reportedAt.toISOString());
    expect(row?.study_instance_uid).toBe('1.2.826.0.1.3680043.8.498.777');
  });

  it('answers AE with the field at fault, and stores nothing, for a report it cannot take', async () => {
    const appointmentId = await appointmentIdOf(server.db, AMELIA.bookingKey);
    const cases = [
      { message: oru({ appointmentId, accession: '' }), errorCode: '101', location: 'OBR^1^3', text: /accession number/ },
      {
        message: oru({ appointmentId: '7f1c2a4e-0000-4000-8000-00000000dead' }),
        errorCode: '204',
        location: 'OBR^1^2',
        text: /No appointment/,
      },
      { message: oru({ appointmentId: 'not-an-id' }), errorCode: '102', location: 'OBR^1^2', text: /not an appointment id/ },
      { message: oru({ appointmentId, lines: [] }), errorCode: '101', location: 'OBX^1^5', text: /report text/ },
      { message: oru({ appointmentId, pdf: Buffer.from('not a pdf at all') }), errorCode: '102', text: /PDF/ },
    ];
    for (const { message, errorCode, location, text } of cases) {
      const ack = await sendFromRis(port, message);
      expect(ack.code, ack.raw).toBe('AE');
      expect(ack.errorCode).toBe(errorCode);
      if (location !== undefined) expect(ack.raw).toContain(location);
      expect(ack.text).toMatch(text);
    }
    expect(await resultsOf(appointmentId)).toEqual([]);

    // A preliminary report is acknowledged and not shown.
    const preliminary = await sendFromRis(port, oru({ appointmentId, status: 'P', accession: 'ACC-HL7-P' }));
    expect(preliminary).toMatchObject({ code: 'AA' });
    expect(await resultsOf(appointmentId)).toEqual([]);

    // A different report under an accession number already stored: refused, the first one kept.
    expect((await sendFromRis(port, oru({ appointmentId, accession: 'ACC-HL7-A' }))).code).toBe('AA');
    const changed = await sendFromRis(port, oru({ appointmentId, accession: 'ACC-HL7-A', lines: ['Impression: something else.'] }));
    expect(changed).toMatchObject({ code: 'AE', errorCode: '205' });
    expect(await resultsOf(appointmentId)).toMatchObject([{ accession_number: 'ACC-HL7-A', report_text: REPORT_LINES.join('\n') }]);

    // The same control id for another message.
    const id = controlId();
    expect((await sendFromRis(port, oru({ appointmentId, accession: 'ACC-HL7-A', id }))).code).toBe('AA');
    const reused = await sendFromRis(port, oru({ appointmentId, accession: 'ACC-HL7-B', id }));
    expect(reused).toMatchObject({ code: 'AE', errorCode: '205' });
    expect((await resultsOf(appointmentId)).map((row) => row.accession_number)).toEqual(['ACC-HL7-A']);
  });

  it('answers AR for a message type, event or processing id it does not take', async () => {
    const adt = risMessage({ type: 'ADT', event: 'A08', structure: 'ADT_A01', controlId: controlId() });
    addSegment(adt, 'PID', { 1: '1' });
    expect(await sendFromRis(port, adt)).toMatchObject({ code: 'AR', errorCode: '200' });
    const siuNew = risMessage({ type: 'SIU', event: 'S12', structure: 'SIU_S12', controlId: controlId() });
    expect(await sendFromRis(port, siuNew)).toMatchObject({ code: 'AR', errorCode: '201' });
    const test = risMessage({ type: 'ORU', event: 'R01', structure: 'ORU_R01', controlId: controlId(), processingId: 'T' });
    expect(await sendFromRis(port, test)).toMatchObject({ code: 'AR', errorCode: '202' });
  });

  it('cancels an appointment on SIU^S15, mails the patient and tells the RIS nothing back; again it changes nothing', async () => {
    const appointmentId = await appointmentIdOf(server.db, HARPER.bookingKey);
    const [before] = await server.db.query<{ status: string }>(`select status from appointment where id = $1::uuid`, [appointmentId]);
    expect(before?.status).not.toBe('CANCELED');
    const mails = async () =>
      (await server.db.query<{ n: number }>(`select count(*)::int as n from outbox_mail where recipient = $1`, [HARPER.email]))[0]?.n ?? 0;
    const mailsBefore = await mails();
    const siu = (id: string) => {
      const message = risMessage({ type: 'SIU', event: 'S15', structure: 'SIU_S12', controlId: id });
      addSegment(message, 'SCH', {
        1: `${appointmentId}^RADIOLOGY-PORTAL`,
        2: 'F-991^ACME',
        6: 'MACHINE^Scanner out of service^L',
        25: 'Cancelled',
      });
      addSegment(message, 'PID', { 1: '1', 5: 'PATIENT^TEST' });
      return message;
    };
    const id = controlId();
    const ack = await sendFromRis(port, siu(id));
    expect(ack, ack.raw).toMatchObject({ code: 'AA', about: id });
    const [after] = await server.db.query<{ status: string }>(`select status from appointment where id = $1::uuid`, [appointmentId]);
    expect(after?.status).toBe('CANCELED');
    expect(await mails()).toBe(mailsBefore + 1);
    const [change] = await server.db.query<{ note: string | null }>(
      `select note from appointment_change where booking_key = $1 and action = 'CANCEL' order by id desc limit 1`,
      [HARPER.bookingKey],
    );
    expect(change?.note).toBe('Scanner out of service');
    const echoed = await server.db.query(`select 1 from hl7_outbound where appointment_id = $1::uuid and event = 'SIU_S15'`, [
      appointmentId,
    ]);
    expect(echoed).toEqual([]);

    // The same message again, and a new message for the same cancellation: nothing more happens.
    expect((await sendFromRis(port, siu(id))).code).toBe('AA');
    const repeat = await sendFromRis(port, siu(controlId()));
    expect(repeat).toMatchObject({ code: 'AA', text: expect.stringContaining('already') });
    expect(await mails()).toBe(mailsBefore + 1);

    const unknown = risMessage({ type: 'SIU', event: 'S15', structure: 'SIU_S12', controlId: controlId() });
    addSegment(unknown, 'SCH', { 1: '7f1c2a4e-0000-4000-8000-00000000beef^RADIOLOGY-PORTAL' });
    expect(await sendFromRis(port, unknown)).toMatchObject({ code: 'AE', errorCode: '204' });
  });
});
