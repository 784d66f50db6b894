import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoHl7Ris, type DemoHl7Ris } from '../../../src-server/dev-ris/hl7-receiver';
import { createHl7Worker } from '../../../src-server/platform/hl7/hl7-worker';
import { book, patient, sydney } from '../modules/booking/booking-test-kit';
import { useTestApp } from '../helpers/test-app';
import { freePort } from '../hl7/helpers/simple-hl7-peer';

// The demo RIS's HL7 listener, as `npm start` runs it without HL7_RIS_ADDRESS: a booking's SIU^S12
// reaches it, it acknowledges, and the development outbox page shows the message as sent, with its
// text. Then the loop back: the page's button has the demo RIS send the appointment's report
// (ORU^R01) to the portal's own listener, which stores it as the patient's result.

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the demo RIS’s HL7 listener', () => {
  let demo: DemoHl7Ris | undefined;
  let listenPort = 0;
  beforeAll(async () => {
    demo = await startDemoHl7Ris();
    listenPort = await freePort();
  });
  afterAll(async () => {
    await demo?.close();
  });
  const server = useTestApp({
    env: () => ({
      MAIL_DEV_OUTBOX_ENABLED: 'true',
      HL7_RIS_ADDRESS: `127.0.0.1:${demo?.port ?? 0}`,
      HL7_RIS_APPLICATION: 'DEMO-RIS',
      HL7_LISTEN_ADDRESS: `127.0.0.1:${listenPort}`,
      HL7_RESULT_RELEASE_DAYS: '0',
    }),
  });

  it('listens on this machine only, acknowledges a booking’s message, and the outbox page shows it sent', async () => {
    expect(demo?.host).toBe('127.0.0.1');
    const response = await book(server.app, {
      exams: ['ct-chest'],
      clinicSlug: 'newcastle',
      startsAt: sydney('2026-03-18', '13:00'),
      patient: patient({ lastName: 'Demo-Loop' }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const worker = createHl7Worker({
      db: server.db,
      destination: { host: '127.0.0.1', port: demo?.port ?? 0 },
      clock: server.clock,
      logger: silent,
    });
    expect(await worker.runOnce()).toMatchObject({ sent: 1 });

    const page = await server.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.statusCode).toBe(200);
    const document = new JSDOM(page.body).window.document;
    const heading = [...document.querySelectorAll('h2')].find((h2) => h2.textContent === 'HL7 messages to the RIS');
    expect(heading).toBeDefined();
    const row = document.querySelector('#to-ris + .scroll table tbody tr');
    const cells = [...(row?.querySelectorAll('td') ?? [])].map((cell) => cell.textContent ?? '');
    expect(cells[1]).toBe('SIU_S12');
    expect(cells[3]).toBe('sent');
    expect(row?.querySelector('pre')?.textContent).toMatch(/^MSH\|\^~\\&\|RADIOLOGY-PORTAL\|.*\nSCH\|/s);
    expect(row?.querySelector('pre')?.textContent).toContain('Demo-Loop');

    // The loop back: the row's button has the demo RIS report the appointment.
    const form = row?.querySelector('form');
    const action = form?.getAttribute('action') ?? '';
    expect(form?.textContent).toBe('Report it from the demo RIS');
    const appointmentId = /reports\/([0-9a-f-]{36})$/.exec(action)?.[1] ?? '';
    const post = (headers: Record<string, string>) =>
      server.app.inject({
        method: 'POST',
        url: action,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: '',
      });
    // Another site's page in the developer's browser may not make the demo RIS report.
    expect((await post({ origin: 'https://elsewhere.example' })).statusCode).toBe(403);
    expect((await post({ origin: 'null', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    // The page's own form, as a browser sends it (the page's referrer policy lets it name its origin).
    const reported = await post({ origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' });
    expect(reported.statusCode, reported.body).toBe(303);
    expect(reported.headers.location).toBe('/dev/outbox#from-ris');
    const results = await server.db.query<{ accession_number: string; report_text: string }>(
      `select accession_number, report_text from result_report where appointment_id = $1::uuid`,
      [appointmentId],
    );
    expect(results).toEqual([
      { accession_number: expect.stringMatching(/^DEMO-HL7-/), report_text: expect.stringContaining('IMPRESSION: Normal study.') },
    ]);

    const after = new JSDOM((await server.app.inject({ method: 'GET', url: '/dev/outbox' })).body).window.document;
    const fromRis = after.querySelector('#from-ris + .scroll table tbody tr');
    const answer = [...(fromRis?.querySelectorAll('td') ?? [])].map((cell) => cell.textContent ?? '');
    expect(answer.slice(1, 2)).toEqual(['ORU^R01']);
    expect(answer[4]).toBe(appointmentId);
    expect(answer[5]).toBe('AA');
  });
});
