import { beforeAll, describe, expect, it } from 'vitest';
import { CheckInStatusSchema } from '@contract/api/check-in';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { appointmentBase, multipart, MINIMAL_PDF } from '../attachments/attachments-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { bookThrough, signIn, summaryOf } from '../appointments/self-service-kit';

// Check-in starts from what the referral upload recorded (docs/rules/check-in.md#prefill): the
// referral's date and, when the typed name is one doctor of the directory, that doctor.

describe.each(backends())('check-in prefill from the referral upload on %s', (backend) => {
  const server = useTestApp({ backend });
  beforeAll(() => setOtpRequired(server.db, false));

  it('answers nothing before an upload, then the date and the matching doctor, then only the name for an unknown one', async () => {
    const booked = await bookThrough(server.app, { exams: 'ct-brain', clinic: 'parramatta', date: '2026-03-25', slot: 3 });
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const slug = (await summaryOf(signed, booked.bookingKey)).appointments[0]?.slug ?? '';
    const status = async () => {
      const response = await signed.get(`/api/secured/appointments/${booked.bookingKey}/check-in/${slug}`);
      expect(response.statusCode, response.body).toBe(200);
      return CheckInStatusSchema.parse(response.json()).prefill;
    };
    expect(await status()).toEqual({ dateOfReferral: null, referrer: null, referringDoctorName: null });

    // A name the directory holds once (grouped, not a correlated count: the directory is large).
    const [doctor] = await server.db.query<{ id: string; first_name: string; last_name: string }>(
      `select min(id::text) as id, min(first_name) as first_name, min(last_name) as last_name from referring_doctor
        group by lower(first_name), lower(last_name) having count(*) = 1 order by 3 limit 1`,
    );
    const [type] = await server.db.query<{ id: string }>(`select id::text as id from document_type where code = 'REFERRAL'`);
    const upload = async (referringDoctor: string, referralDate: string) => {
      const body = multipart(
        { documentTypeId: type?.id ?? '', referralDate, referringDoctor },
        { name: 'referral.pdf', type: 'application/pdf', bytes: MINIMAL_PDF },
      );
      const response = await server.app.inject({
        method: 'POST',
        url: appointmentBase(booked.bookingKey),
        headers: { 'x-requested-with': 'XMLHttpRequest', cookie: `__Host-portal_session=${signed.browser.token ?? ''}`, ...body.headers },
        payload: body.payload,
      });
      expect(response.statusCode, response.body).toBe(201);
    };

    // Typed as patients do: "Dr", other case.
    await upload(`Dr ${doctor?.first_name.toUpperCase() ?? ''} ${doctor?.last_name ?? ''}`, '2026-03-02');
    const matched = await status();
    expect(matched?.dateOfReferral).toBe('2026-03-02');
    expect(matched?.referrer?.id).toBe(doctor?.id);
    expect(matched?.referringDoctorName).toContain(doctor?.last_name ?? 'missing');

    // A name the directory does not know is kept as typed, no doctor chosen. (The test clock stands
    // still, so two uploads would tie on their time: the first referral goes first.)
    await server.db.query(`delete from attachment where owner_key = $1`, [booked.bookingKey]);
    await upload('Dr Nobody Unknownname', '2026-03-04');
    expect(await status()).toEqual({ dateOfReferral: '2026-03-04', referrer: null, referringDoctorName: 'Dr Nobody Unknownname' });
  });
});
