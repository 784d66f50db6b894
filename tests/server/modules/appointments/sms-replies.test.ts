import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readReply } from '../../../../src-server/modules/appointments/sms-replies';
import { createReminders } from '../../../../src-server/modules/appointments/reminders';
import { phoneKey } from '../../../../src-server/platform/sms/phone-key';
import { book, patient, slotsOn, sydney } from '../booking/booking-test-kit';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';

// Replies to SMS reminders through the SMS provider's inbound webhook, on a real database with an
// injected clock: YES confirms and NO cancels the booking of the latest reminder sent to the
// sender's number (written differently from the booking's), the patient is told by SMS, a retried
// delivery is acted on once, and what cannot be read changes nothing.

const HOUR = 3_600_000;
const SMS_TOKEN = 'sms-provider-inbound-token-0123456789abcdef';
const auth = { authorization: `Bearer ${SMS_TOKEN}` };

describe('reading a reply', () => {
  it('takes the first word, in English or Macedonian, whatever its case and punctuation', () => {
    expect(readReply('Yes')).toBe('confirm');
    expect(readReply('  YES please!! ')).toBe('confirm');
    expect(readReply('y')).toBe('confirm');
    expect(readReply('Да')).toBe('confirm');
    expect(readReply('no.')).toBe('cancel');
    expect(readReply('NO thanks')).toBe('cancel');
    expect(readReply('не')).toBe('cancel');
    expect(readReply('STOP')).toBe('stop');
    expect(readReply('maybe')).toBeNull();
    expect(readReply("I can't make it")).toBeNull();
    expect(readReply('')).toBeNull();
  });

  it('keeps one spelling per number', () => {
    expect(phoneKey('0412 345 678', 'AU')).toBe('+61412345678');
    expect(phoneKey('+61 412 345 678', 'AU')).toBe('+61412345678');
    expect(phoneKey('070 123 456', 'MK')).toBe('+38970123456');
    expect(phoneKey('abc', 'AU')).toBeNull();
  });
});

describe.each(backends())('SMS replies on %s', (backend) => {
  const server = useTestApp({
    backend,
    clock: SEED_NOW,
    env: {
      SMS_INBOUND_TOKEN_SHA256: createHash('sha256').update(SMS_TOKEN).digest('hex'),
      // The answers go through the SMS outbox (no worker runs here, nothing is sent).
      SMS_PROVIDER_URL: 'http://127.0.0.1:9/sms',
      SMS_PROVIDER_API_KEY: 'test-key',
    },
  });
  const reminders = () =>
    createReminders({ db: server.db, clock: server.clock, publicUrl: 'https://portal.example', sms: true, smsReplies: true });
  let messages = 0;
  const reply = (from: string, text: string, messageId = `SM${(messages += 1)}`) =>
    server.app.inject({ method: 'POST', url: '/api/sms/inbound', headers: auth, payload: { messageId, from, text } });
  const statusOf = async (key: string) =>
    (await server.db.query<{ status: string }>(`select status from appointment where booking_key = $1`, [key])).map((row) => row.status);
  const answersTo = (to: string) =>
    server.db.query<{ text_body: string }>(
      `select text_body from outbox_sms where recipient = $1 and kind = 'appointment_reply' order by id`,
      [to],
    );

  /** Books ct-chest at Newcastle with `phone` and sends its 24-hour reminder; answers its key and start. */
  const remindedBooking = async (date: string, time: string, phone: string) => {
    server.clock.set(SEED_NOW);
    const response = await book(server.app, {
      exams: ['ct-chest'],
      clinicSlug: 'newcastle',
      startsAt: sydney(date, time),
      patient: patient({ contactNumber: phone }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const start = new Date(sydney(date, time)).getTime();
    server.clock.set(new Date(start - 24 * HOUR + 60_000));
    await reminders().sweep();
    const [sms] = await server.db.query<{ text_body: string }>(
      `select text_body from outbox_sms where recipient = $1 and kind = 'appointment_reminder' order by id desc limit 1`,
      [phone.replace(/\s/g, '')],
    );
    expect(sms?.text_body).toContain('Reply YES to confirm or NO to cancel.');
    return { key: response.json<{ bookingKey: string }>().bookingKey, start };
  };

  it('confirms with YES and cancels with NO (freeing the time), once per delivery, and tells the patient', async () => {
    const booking = await remindedBooking('2026-03-18', '14:00', '0412000111');
    const from = '+61412000111';

    const yes = await reply(from, 'Yes please', 'SM-yes');
    expect(yes.statusCode, yes.body).toBe(200);
    expect(yes.json()).toEqual({ outcome: 'confirmed' });
    expect(await statusOf(booking.key)).toEqual(['CONFIRMED']);
    // The provider delivers it again: the same answer, nothing more.
    expect((await reply(from, 'Yes please', 'SM-yes')).json()).toEqual({ outcome: 'confirmed' });
    expect(await answersTo(from)).toEqual([
      { text_body: 'Harbour & Range Radiology: thank you, your CT chest at Newcastle, Wed, 18 Mar, 2:00 pm is confirmed.' },
    ]);

    expect(
      await slotsOn(server.app, 'ct-chest', 'newcastle', '2026-03-18').then((slots) => slots.map((slot) => slot.localTime)),
    ).not.toContain('14:00');
    const no = await reply(from, 'NO');
    expect(no.json()).toEqual({ outcome: 'cancelled' });
    expect(await statusOf(booking.key)).toEqual(['CANCELED']);
    expect(await slotsOn(server.app, 'ct-chest', 'newcastle', '2026-03-18').then((slots) => slots.map((slot) => slot.localTime))).toContain(
      '14:00',
    );
    const answers = await answersTo(from);
    expect(answers[1]?.text_body).toMatch(
      /^Harbour & Range Radiology: your CT chest at Newcastle, Wed, 18 Mar, 2:00 pm is cancelled\. To book again: /,
    );
    const changes = await server.db.query<{ action: string; details: { via?: string } }>(
      `select action, details from appointment_change where booking_key = $1 order by occurred_at`,
      [booking.key],
    );
    expect(changes).toEqual([
      { action: 'CONFIRM', details: { via: 'reminder-sms' } },
      { action: 'CANCEL', details: { via: 'reminder-sms' } },
    ]);

    // Cancelled already: NO again is no change; YES is too late.
    expect((await reply(from, 'no')).json()).toEqual({ outcome: 'unchanged' });
    expect((await reply(from, 'yes')).json()).toEqual({ outcome: 'not_possible' });
    expect((await answersTo(from)).at(-1)?.text_body).toContain('can no longer be changed by SMS. Please call the clinic on');
  });

  it('answers the latest reminder to the number; asks again for what it cannot read; changes nothing for others', async () => {
    const earlier = await remindedBooking('2026-03-19', '09:00', '0412000222');
    const later = await remindedBooking('2026-03-19', '15:00', '0412000222');
    const from = '+61 412 000 222';

    const unclear = await reply(from, 'What time again?');
    expect(unclear.json()).toEqual({ outcome: 'not_understood' });
    expect((await answersTo('+61412000222')).at(-1)?.text_body).toBe(
      'Harbour & Range Radiology: sorry, we did not understand your reply. Reply YES to confirm your CT chest at Newcastle, Thu, 19 Mar, 3:00 pm, or NO to cancel it. Or please call the clinic on 02 4900 1100.'.replace(
        '02 4900 1100',
        (await server.db.query<{ phone: string }>(`select phone from clinic where slug = 'newcastle'`))[0]?.phone ?? '',
      ),
    );
    expect((await reply(from, 'Да')).json()).toEqual({ outcome: 'confirmed' });
    expect(await statusOf(later.key)).toEqual(['CONFIRMED']);
    expect(await statusOf(earlier.key)).toEqual(['BOOKED']);

    // A number no reminder went to, and a carrier's STOP: nothing changes; STOP is not answered.
    expect((await reply('+61499999999', 'yes')).json()).toEqual({ outcome: 'no_reminder' });
    expect((await answersTo('+61499999999'))[0]?.text_body).toContain('we could not match your reply');
    const before = (await answersTo('+61412000222')).length;
    expect((await reply(from, 'STOP')).json()).toEqual({ outcome: 'stop' });
    expect(await answersTo('+61412000222')).toHaveLength(before);
    expect(await statusOf(later.key)).toEqual(['CONFIRMED']);
  });

  it('takes only the provider’s token and a well-formed message', async () => {
    const payload = { messageId: 'SM-auth', from: '+61412000333', text: 'yes' };
    expect((await server.app.inject({ method: 'POST', url: '/api/sms/inbound', payload })).statusCode).toBe(403);
    const wrong = { authorization: 'Bearer not-the-token' };
    expect((await server.app.inject({ method: 'POST', url: '/api/sms/inbound', headers: wrong, payload })).statusCode).toBe(403);
    for (const bad of [
      { ...payload, from: 'not a number' },
      { ...payload, messageId: 'has spaces' },
      { ...payload, text: 'x'.repeat(1601) },
      { messageId: 'SM-x', from: '+61412000333' },
      { ...payload, extra: 1 },
    ]) {
      const refused = await server.app.inject({ method: 'POST', url: '/api/sms/inbound', headers: auth, payload: bad });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await server.db.query(`select 1 from sms_inbound_reply where message_id in ('SM-auth', 'SM-x')`)).toEqual([]);
  });
});

describe('SMS replies not configured', () => {
  const server = useTestApp({});
  it('answers 404, as if the route did not exist', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: auth,
      payload: { messageId: 'SM-1', from: '+61412000444', text: 'yes' },
    });
    expect(response.statusCode).toBe(404);
  });
});
