import { describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { bookThrough, signIn, summaryOf } from '../appointments/self-service-kit';
import { useQuestionnaireApi } from './questionnaire-kit';

// The questionnaires due on a booking (docs/rules/questionnaires.md#due) on a seeded database:
// before the visit "Before your visit" and the pain score before it, after the start for 30
// days the pain score after and the feedback, each only while unanswered; none for a cancelled
// booking. The appointment summary carries them, and the confirmation mail links /q with them.

const DAY_MS = 86_400_000;

describe.each(backends())('questionnaires due on %s', (backend) => {
  const server = useTestApp({ backend });
  const { id } = useQuestionnaireApi(server);

  it('asks before the visit, then after it, only for what is unanswered, and nothing once the booking is cancelled', async () => {
    const booked = await bookThrough(server.app, { exams: 'xr-knee', clinic: 'parramatta', date: '2026-03-24', slot: 2 });
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const base = `/api/questionnaires/appointments/${booked.bookingKey}`;

    expect((await summaryOf(signed, booked.bookingKey)).questionnairesDue).toEqual({
      types: ['REQUIRED_ON_CONFIRMATION', 'PAIN_SCORE_INITIAL'],
      titles: ['Before your visit', 'Pain score before your procedure'],
    });

    const form = await signed.post(`${base}/answers`, {
      questionnaireId: id('before-your-visit'),
      questionnaireResult: { needsInterpreter: false, mobility: 'none' },
    });
    expect(form.statusCode, form.body).toBe(200);
    expect((await summaryOf(signed, booked.bookingKey)).questionnairesDue).toEqual({
      types: ['PAIN_SCORE_INITIAL'],
      titles: ['Pain score before your procedure'],
    });

    const start = new Date(booked.startsAt).getTime();
    const before = server.clock.now();
    try {
      // A session lasts less than the days travelled: the patient signs in again.
      server.clock.set(new Date(start + 60_000));
      const after = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      expect((await summaryOf(after, booked.bookingKey)).questionnairesDue).toEqual({
        types: ['PAIN_SCORE_FINAL', 'FEEDBACK'],
        titles: ['Pain score after your procedure', 'How was booking your appointment?'],
      });
      server.clock.set(new Date(start + 31 * DAY_MS));
      const later = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      expect((await summaryOf(later, booked.bookingKey)).questionnairesDue).toEqual({ types: [], titles: [] });
    } finally {
      server.clock.set(before);
    }

    await server.db.query(`update appointment set status = 'CANCELED' where booking_key = $1`, [booked.bookingKey]);
    const cancelled = await signed.get(`/api/appointments/${booked.bookingKey}`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<{ status: string; questionnairesDue: unknown }>()).toMatchObject({
      status: 'CANCELED',
      questionnairesDue: { types: [], titles: [] },
    });
  });

  it('links the due questionnaires from the confirmation mail, back to the appointment when done', async () => {
    const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'parramatta', date: '2026-03-24', slot: 3 });
    const [mail] = await server.db.query<{ text: string; html: string }>(
      `select text_body as text, html_body as html from outbox_mail where kind = 'booking_confirmation' and text_body like $1`,
      [`%${booked.bookingKey}%`],
    );
    expect(mail).toBeDefined();
    const link = `/q?bookingKey=${booked.bookingKey}&types=REQUIRED_ON_CONFIRMATION,PAIN_SCORE_INITIAL&target=%2Fappointments%2F${booked.bookingKey}`;
    expect(mail?.text).toContain('Before your visit');
    expect(mail?.text).toContain(link);
    expect(mail?.html).toContain(link.replaceAll('&', '&amp;'));
  });
});
