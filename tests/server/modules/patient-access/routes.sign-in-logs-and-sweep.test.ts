import { describe, expect, it } from 'vitest';
import { createPatientAccessRepository } from '../../../../src-server/modules/patient-access/repository';
import { createCaptcha } from '../../../../src-server/platform/captcha/captcha';
import { createPatientAccessService, SESSION_IDLE_MS } from '../../../../src-server/modules/patient-access/service';
import { SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { authenticate, client, LIAM, sessionCheck } from './sign-in-kit';

// No personal data in logs (docs/rules/security.md#logging): a whole sign-in leaves no booking key, date of birth, code, token,
// address or number in the server log. And the sweep deletes ended sessions and old attempts.

describe('patient sign-in logs and sweep', () => {
  const server = useTestApp({ log: true });
  const { clock, log } = server;

  it('logs the sign-in requests without any personal data or secret', async () => {
    const browser = client(server.app);
    expect((await authenticate(browser, { ...LIAM, dateOfBirth: '1991-03-15' })).statusCode).toBe(401);
    expect((await authenticate(browser, LIAM, { contactNumber: LIAM.contactNumber })).statusCode).toBe(200);
    const halfToken = browser.token ?? '';
    expect((await browser.request('POST', '/api/patient-access/otp', { channel: 'EMAIL' })).statusCode).toBe(202);
    const [mail] = await server.db.query<{ text_body: string }>(
      `select text_body from outbox_mail where kind = 'otp_code' order by id desc limit 1`,
    );
    const code = /\b(\d{6})\b/.exec(mail?.text_body ?? '')?.[1] ?? '';
    expect(
      (await browser.request('POST', '/api/patient-access/otp/verify', { code: code === '000000' ? '000001' : '000000' })).statusCode,
    ).toBe(401);
    expect((await browser.request('POST', '/api/patient-access/otp/verify', { code })).statusCode).toBe(200);
    expect((await sessionCheck(browser, LIAM.bookingKey)).statusCode).toBe(200);
    const token = browser.token ?? '';
    expect((await browser.request('POST', '/api/patient-access/logout')).statusCode).toBe(204);

    const text = log.text();
    expect(text).toContain('/api/patient-access/authenticate');
    for (const secret of [LIAM.bookingKey, LIAM.dateOfBirth, '1991-03-15', LIAM.contactNumber, LIAM.email, code, halfToken, token]) {
      expect(secret.length).toBeGreaterThan(5);
      expect(text).not.toContain(secret);
    }
  });

  it('takes about as long for an unknown key as for a wrong date of birth (no timing oracle)', async () => {
    const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;
    const wrong: number[] = [];
    const unknown: number[] = [];
    const timed = async (run: () => Promise<{ statusCode: number }>): Promise<number> => {
      const started = performance.now();
      expect((await run()).statusCode).toBe(401);
      return performance.now() - started;
    };
    for (let sample = 0; sample < 40; sample += 1) {
      // Keep the lockout out of the measurement.
      await server.db.query(`delete from patient_access_failure`);
      const order = sample % 2 === 0;
      const a = () => authenticate(client(server.app), { ...LIAM, dateOfBirth: '1991-03-15' });
      const b = () =>
        authenticate(client(server.app), { bookingKey: `Unknown${String(sample).padStart(15, '0')}`, dateOfBirth: LIAM.dateOfBirth });
      if (order) {
        wrong.push(await timed(a));
        unknown.push(await timed(b));
      } else {
        unknown.push(await timed(b));
        wrong.push(await timed(a));
      }
    }
    const difference = Math.abs(median(wrong) - median(unknown));
    expect(difference).toBeLessThan(Math.max(5, 0.5 * Math.max(median(wrong), median(unknown))));
  });

  it('sweeps ended sessions (with their codes) and attempt records older than a day', async () => {
    const service = createPatientAccessService({
      db: server.db,
      repository: createPatientAccessRepository(server.db),
      clock,
      sessionSecret: null,
      smsConfigured: false,
      captcha: createCaptcha({ db: server.db, clock, secret: () => Promise.resolve('sweep-test-secret') }),
      settings: () => Promise.resolve({ otpRequired: true, otpResendSeconds: 5, providerName: 'Demo' }),
    });
    clock.set(SEED_NOW);
    const live = client(server.app);
    await authenticate(live, LIAM);
    await authenticate(client(server.app), { ...LIAM, dateOfBirth: '1991-03-15' });
    clock.advance(SESSION_IDLE_MS);
    const swept = await service.sweep();
    expect(swept.sessions).toBeGreaterThanOrEqual(1);
    expect(await server.db.query(`select 1 from patient_session`)).toHaveLength(0);
    expect(await server.db.query(`select 1 from patient_otp`)).toHaveLength(0);
    expect((await server.db.query(`select 1 from patient_access_failure`)).length).toBeGreaterThan(0);
    clock.advance(24 * 60 * 60_000);
    expect((await service.sweep()).failures).toBeGreaterThan(0);
    expect(await server.db.query(`select 1 from patient_access_failure`)).toHaveLength(0);
  });
});
