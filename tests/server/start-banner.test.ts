import { describe, expect, it } from 'vitest';
import type { Database } from '../../src-server/db/connection';
import { DEMO_APPOINTMENT_KEY } from '../../src-server/db/seed/demo-marker';
import { startBanner } from '../../src-server/start-banner';
import { testConfig } from './helpers/build-server';
import { backends } from './helpers/database';
import { useTestDatabase } from './helpers/test-app';

/** The lines main.ts prints at start (tests/server/main.test.ts runs the real process). */

const FACTS = { database: 'PGlite in /tmp/x/pglite', seededNow: false, missingIndexHtml: null };

async function allBookingKeys(db: Database): Promise<string[]> {
  const rows = await db.query<{ booking_key: string }>('select booking_key from appointment');
  return rows.map((row) => row.booking_key);
}

async function bannerText(db: Database, env: Record<string, string> = {}): Promise<string> {
  return (await startBanner(db, testConfig(env), FACTS)).join('\n');
}

/** No booking key but (at most) the demo appointment's ever reaches the terminal. */
async function expectNoOtherBookingKey(db: Database, text: string): Promise<void> {
  const keys = await allBookingKeys(db);
  expect(keys.length).toBeGreaterThan(5);
  for (const key of keys.filter((candidate) => candidate !== DEMO_APPOINTMENT_KEY)) expect(text).not.toContain(key);
}

describe.each(backends())('start-up banner on %s', (backend) => {
  describe('on the demo provider', () => {
    const database = useTestDatabase({ backend });

    it('links the demo appointment, and no other booking', async () => {
      const text = await bannerText(database.db);
      expect(text).toContain(`  demo appointment: http://localhost:3000/appointments/${DEMO_APPOINTMENT_KEY}`);
      await expectNoOtherBookingKey(database.db, text);
    });

    it('says the development outbox is on, why, and that it answers only this machine', async () => {
      expect(await bannerText(database.db)).toContain(
        '  mail outbox:      http://localhost:3000/dev/outbox (on: the demo provider is served and no SMTP_HOST or SMS_PROVIDER_URL is set; answers only this machine; MAIL_DEV_OUTBOX_ENABLED=false hides it)',
      );
      expect(await bannerText(database.db, { MAIL_DEV_OUTBOX_ENABLED: 'true' })).toContain(
        '(on: MAIL_DEV_OUTBOX_ENABLED=true; answers only this machine;',
      );
      expect(await bannerText(database.db, { SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'portal@example.com' })).not.toContain(
        'mail outbox',
      );
      expect(await bannerText(database.db, { MAIL_DEV_OUTBOX_ENABLED: 'false' })).not.toContain('mail outbox');
    });

    it('prints no link once the demo appointment is cancelled, and never another patient’s booking instead', async () => {
      await database.db.query(`update appointment set status = 'CANCELED' where booking_key = $1`, [DEMO_APPOINTMENT_KEY]);
      const text = await bannerText(database.db);
      expect(text).not.toContain('demo appointment');
      expect(text).not.toContain('/appointments/');
      await expectNoOtherBookingKey(database.db, text);
    });
  });

  describe('when the demo appointment is gone', () => {
    const database = useTestDatabase({ backend });

    it('prints no link', async () => {
      await database.db.query('delete from appointment where booking_key = $1', [DEMO_APPOINTMENT_KEY]);
      const text = await bannerText(database.db);
      expect(text).not.toContain('/appointments/');
      await expectNoOtherBookingKey(database.db, text);
    });
  });

  describe('on a provider that is not the demo one', () => {
    const database = useTestDatabase({ backend });

    it('prints no booking link and no outbox, though the demo appointment exists', async () => {
      await database.db.query(`update provider set environment_config = jsonb_set(environment_config, '{profiles}', '[]'::jsonb)`);
      const text = await bannerText(database.db);
      expect(text).not.toContain('/appointments/');
      expect(text).not.toContain('mail outbox');
      expect(text).toContain('  kiosk:            http://localhost:3000/kiosk?kioskMode=true');
    });

    it('says where HL7 goes, and that check-ins go too only when they go by HL7', async () => {
      const hl7 = await bannerText(database.db, { HL7_RIS_ADDRESS: 'ris.example.internal:2575' });
      expect(hl7).toContain('  HL7 to the RIS:   ris.example.internal:2575');
      expect(hl7).toContain('  check-ins:        to the RIS as HL7 ADT^A05 and ADT^A04 (RIS_CHECK_IN=hl7)');
      const webhook = await bannerText(database.db, { HL7_RIS_ADDRESS: 'ris.example.internal:2575', RIS_CHECK_IN: 'webhook' });
      expect(webhook).toContain('  HL7 to the RIS:   ris.example.internal:2575');
      expect(webhook).not.toContain('check-ins:');
    });
  });
});
