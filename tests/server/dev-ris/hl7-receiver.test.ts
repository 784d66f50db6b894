import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoHl7Ris, type DemoHl7Ris } from '../../../src-server/dev-ris/hl7-receiver';
import { createHl7Worker } from '../../../src-server/platform/hl7/hl7-worker';
import { book, patient, sydney } from '../modules/booking/booking-test-kit';
import { useTestApp } from '../helpers/test-app';

// The demo RIS's HL7 listener, as `npm start` runs it without HL7_RIS_ADDRESS: a booking's SIU^S12
// reaches it, it acknowledges, and the development outbox page shows the message as sent, with its text.

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the demo RIS’s HL7 listener', () => {
  let demo: DemoHl7Ris | undefined;
  beforeAll(async () => {
    demo = await startDemoHl7Ris();
  });
  afterAll(async () => {
    await demo?.close();
  });
  const server = useTestApp({
    env: () => ({ MAIL_DEV_OUTBOX_ENABLED: 'true', HL7_RIS_ADDRESS: `127.0.0.1:${demo?.port ?? 0}`, HL7_RIS_APPLICATION: 'DEMO-RIS' }),
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
    const row = document.querySelector('h2 + table tbody tr');
    const cells = [...(row?.querySelectorAll('td') ?? [])].map((cell) => cell.textContent ?? '');
    expect(cells[1]).toBe('SIU_S12');
    expect(cells[3]).toBe('sent');
    expect(row?.querySelector('pre')?.textContent).toMatch(/^MSH\|\^~\\&\|RADIOLOGY-PORTAL\|.*\nSCH\|/s);
    expect(row?.querySelector('pre')?.textContent).toContain('Demo-Loop');
  });
});
