import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/test-app';
import { client, LIAM, type Client } from '../patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV, resultsSignIn } from '../results/results-kit';
import { mailedShareToken, openShare, share } from './shares-kit';

// Share links by token (docs/rules/results.md#sharing): no changed character of a link opens a
// share, and with SMS on a phone number is a contact that gets the link and the code by SMS.

describe('share link tokens', () => {
  const server = useTestApp({
    env: { ...INTEGRATION_ENV, SMS_PROVIDER_URL: 'http://127.0.0.1:9/sms', SMS_PROVIDER_API_KEY: 'test-sms-key' },
  });
  let liam: Client;
  let token: string;

  beforeAll(async () => {
    await deliverReport(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-T-1',
      releaseAt: new Date(server.clock.now().getTime() - 86_400_000).toISOString(),
    });
    liam = await resultsSignIn(server.app, server.db, LIAM);
    expect((await share(liam, LIAM.bookingKey)).response.statusCode).toBe(201);
    token = await mailedShareToken(server.db, 'dr.gp@clinic.example');
  });

  it('opens for the exact token and for no token with any one character changed', async () => {
    expect((await openShare(client(server.app), token, LIAM.dateOfBirth)).statusCode).toBe(200);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: token.length - 1 }), fc.nat({ max: alphabet.length - 1 }), async (position, pick) => {
        const replacement = alphabet[pick] === token[position] ? alphabet[(pick + 1) % alphabet.length] : alphabet[pick];
        const changed = `${token.slice(0, position)}${replacement ?? ''}${token.slice(position + 1)}`;
        const response = await openShare(client(server.app), changed, LIAM.dateOfBirth);
        expect(response.statusCode, `changed at ${position}`).toBe(401);
        expect(response.headers['set-cookie']).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('shares with a phone number when SMS is on: the link and then the code go by SMS to that number', async () => {
    const phone = '+61491570999';
    const { response, record } = await share(liam, LIAM.bookingKey, { contactDetails: phone, contactDetailsType: 'PHONE' });
    expect(response.statusCode, response.body).toBe(201);
    expect(record.contactDetailsType).toBe('PHONE');
    const [sms] = await server.db.query<{ text_body: string }>(
      `select text_body from outbox_sms where recipient = $1 and kind = 'result_share' order by id desc limit 1`,
      [phone],
    );
    const smsToken = /#([A-Za-z0-9_-]{43})/.exec(sms?.text_body ?? '')?.[1] ?? '';
    const opened = await openShare(client(server.app), smsToken, LIAM.dateOfBirth);
    expect(opened.json()).toMatchObject({ otpRequired: true, otpChannels: ['SMS'] });
    for (const bad of ['12345678', '+1234567890123456', '0491 570 999']) {
      const refused = await share(liam, LIAM.bookingKey, { contactDetails: bad, contactDetailsType: 'PHONE' });
      expect(refused.response.json(), bad).toMatchObject({ code: 'invalid_contact_details' });
    }
  });
});
