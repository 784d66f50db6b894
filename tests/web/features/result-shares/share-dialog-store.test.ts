import { describe, expect, it } from 'vitest';
import { SHARE_PHONE_PATTERN } from '@contract/api/result-shares';
import { CONTROL_CHARACTER_MESSAGE } from '@contract/api/text';
import { createApiClient } from '../../../../src-web/api/client';
import { createResultSharesApi } from '../../../../src-web/features/result-shares/result-shares-api';
import { contactOf, contactProblem, ShareDialogStore, type ShareType } from '../../../../src-web/features/result-shares/share-dialog-store';
import { startApiServer } from '../../helpers/api-server';
import {
  BOOKING_KEY,
  EXPIRED,
  NEW_ID,
  NOW,
  OPENED,
  refuse,
  sharesServer,
  SHARES_PATH,
  UNOPENED,
  type SharesServer,
} from './result-sharing-fixtures';

interface Setup {
  store: ShareDialogStore;
  server: SharesServer;
  logouts: () => number;
  requests: () => string[];
}

async function setup(options: Parameters<typeof sharesServer>[0] & { type?: ShareType } = {}): Promise<Setup> {
  const server = sharesServer(options);
  const http = await startApiServer(server.routes);
  const client = createApiClient(http.url);
  let logouts = 0;
  client.setSessionHandlers({ logout: () => (logouts += 1), reauthenticate: () => undefined });
  const store = new ShareDialogStore({ api: createResultSharesApi(client), now: () => NOW }, BOOKING_KEY, options.type ?? 'RESULT');
  return { store, server, logouts: () => logouts, requests: () => http.requests.map((request) => `${request.method} ${request.url}`) };
}

async function opened(options: Parameters<typeof setup>[0] = {}): Promise<Setup> {
  const set = await setup(options);
  await set.store.open();
  expect(set.store.loadState).toBe('loaded');
  return set;
}

describe('share contact rules (spec point 5)', () => {
  it('should with SMS off require an e-mail address', () => {
    expect(contactProblem('', false)).toBe('required');
    expect(contactProblem('   ', false)).toBe('required');
    expect(contactProblem('ana@example.com', false)).toBeNull();
    expect(contactProblem(' ana@example.com ', false)).toBeNull();
    expect(contactProblem('+61412345678', false)).toBe('email');
    expect(contactProblem('ana@', false)).toBe('email');
  });

  it('should with SMS on take an e-mail or a phone of 9 to 15 digits with an optional plus, else invalid_contact_details', () => {
    expect(contactProblem('ana@example.com', true)).toBeNull();
    expect(contactProblem('+61412345678', true)).toBeNull();
    expect(contactProblem('412345678', true)).toBeNull();
    expect(contactProblem('123456789012345', true)).toBeNull();
    expect(contactProblem('+61 412 345 678', true)).toBeNull();
    expect(contactProblem('12345678', true)).toBe('invalidContact');
    expect(contactProblem('1234567890123456', true)).toBe('invalidContact');
    expect(contactProblem('++61412345678', true)).toBe('invalidContact');
    expect(contactProblem('0412-345-678', true)).toBe('invalidContact');
    expect(contactProblem('ana@', true)).toBe('invalidContact');
    expect(contactProblem('', true)).toBe('invalidContact');
  });

  it('should send EMAIL for an e-mail and PHONE otherwise, a phone without its spaces', () => {
    expect(contactOf(' Ana@Example.com ')).toEqual({ value: 'Ana@Example.com', type: 'EMAIL' });
    expect(contactOf('+61 412 345 678')).toEqual({ value: '+61412345678', type: 'PHONE' });
    expect(SHARE_PHONE_PATTERN.test(contactOf('+61 412 345 678').value)).toBe(true);
  });
});

describe('ShareDialogStore', () => {
  it('should load the shares newest first with the SMS and note settings', async () => {
    const { store, requests } = await opened({ shares: [EXPIRED, OPENED, UNOPENED], smsEnabled: true, noteMaxLength: 80 });
    expect(requests()).toEqual([`GET ${SHARES_PATH}`]);
    expect(store.shares.map((share) => share.id)).toEqual([UNOPENED.id, OPENED.id, EXPIRED.id]);
    expect(store.smsEnabled).toBe(true);
    expect(store.noteMaxLength).toBe(80);
    expect(store.expired(EXPIRED)).toBe(true);
    expect(store.expired(OPENED)).toBe(false);
  });

  it('should refuse a phone number with SMS off and send nothing', async () => {
    const { store, server } = await opened({ smsEnabled: false });
    store.setField('contactDetails', '+61412345678');
    expect(await store.submit()).toBe(false);
    expect(store.visibleProblem('contactDetails')).toBe('email');
    expect(store.firstInvalidField).toBe('contactDetails');
    expect(server.posts).toEqual([]);
  });

  it('should show the contact problem on Share, not while the field is left empty', async () => {
    const { store, server } = await opened();
    store.touch('contactDetails');
    expect(store.visibleProblem('contactDetails')).toBeNull();
    expect(await store.submit()).toBe(false);
    expect(store.visibleProblem('contactDetails')).toBe('required');
    expect(server.posts).toEqual([]);
  });

  it('should share with a phone by SMS when SMS is on: PHONE, trimmed, and the success line', async () => {
    const { store, server } = await opened({ smsEnabled: true });
    store.setField('contactDetails', ' +61 412 345 678 ');
    store.setField('contactName', '  Mum ');
    expect(store.contactType).toBe('PHONE');
    expect(await store.submit()).toBe(true);
    expect(server.posts).toEqual([{ contactDetails: '+61412345678', contactDetailsType: 'PHONE', contactName: 'Mum', type: 'RESULT' }]);
    expect(store.success).toEqual({ contact: 'Mum', channel: 'PHONE' });
    expect(store.shares[0]?.id).toBe(NEW_ID);
    expect(store.contactDetails).toBe('');
    expect(store.visibleProblem('contactDetails')).toBeNull();
  });

  it('should share the history with an e-mail, with the note, and name the contact by address when unnamed', async () => {
    const { store, server } = await opened({ type: 'HISTORY' });
    store.setField('contactDetails', 'ana@example.com');
    store.setField('note', ' Have a look ');
    expect(store.contactType).toBe('EMAIL');
    expect(await store.submit()).toBe(true);
    expect(server.posts).toEqual([
      { contactDetails: 'ana@example.com', contactDetailsType: 'EMAIL', note: 'Have a look', type: 'HISTORY' },
    ]);
    expect(store.success).toEqual({ contact: 'ana@example.com', channel: 'EMAIL' });
  });

  it('should hold the note to the configured length (default 150)', async () => {
    const defaults = await opened();
    expect(defaults.store.noteMaxLength).toBe(150);
    defaults.store.setField('contactDetails', 'ana@example.com');
    defaults.store.setField('note', 'x'.repeat(150));
    expect(defaults.store.problemOf('note')).toBeNull();
    defaults.store.setField('note', 'x'.repeat(151));
    expect(await defaults.store.submit()).toBe(false);
    expect(defaults.store.visibleProblem('note')).toBe('tooLong');
    expect(defaults.server.posts).toEqual([]);

    const short = await opened({ noteMaxLength: 10 });
    short.store.setField('contactDetails', 'ana@example.com');
    short.store.setField('note', 'x'.repeat(11));
    expect(await short.store.submit()).toBe(false);
    expect(short.store.firstInvalidField).toBe('note');
  });

  it('should not share before the list (and its rules) has loaded', async () => {
    const { store, server } = await setup();
    store.setField('contactDetails', 'ana@example.com');
    expect(store.canSubmit).toBe(false);
    expect(await store.submit()).toBe(false);
    expect(server.posts).toEqual([]);
  });

  it('should put 400 invalid_contact_details next to the contact, and clear it when the contact changes', async () => {
    const { store, server } = await opened({ smsEnabled: true });
    server.override.create = refuse(400, {
      code: 'invalid_contact_details',
      message: 'Please enter a valid e-mail address or phone number.',
      details: [{ in: 'body/contactDetails', message: 'invalid_contact_details' }],
    });
    store.setField('contactDetails', '+61412345678');
    expect(await store.submit()).toBe(false);
    expect(store.visibleProblem('contactDetails')).toBe('invalidContact');
    expect(store.formProblem).toBeNull();
    expect(store.firstInvalidField).toBe('contactDetails');
    store.setField('contactDetails', '+61412345679');
    expect(store.visibleProblem('contactDetails')).toBeNull();
  });

  it('should put a 400 validation_failed on the field it names', async () => {
    const { store, server } = await opened();
    server.override.create = refuse(400, {
      code: 'validation_failed',
      message: 'The note is at most 150 characters.',
      details: [{ in: 'body/note', message: 'The note is at most 150 characters.' }],
    });
    store.setField('contactDetails', 'ana@example.com');
    store.setField('note', 'hello');
    expect(await store.submit()).toBe(false);
    expect(store.visibleProblem('note')).toBe('tooLong');
    expect(store.visibleProblem('contactDetails')).toBeNull();

    server.override.create = refuse(400, {
      code: 'validation_failed',
      message: 'The contact is a phone number.',
      details: [{ in: 'body/contactDetailsType', message: 'The contact is a phone number.' }],
    });
    expect(await store.submit()).toBe(false);
    expect(store.visibleProblem('contactDetails')).toBe('invalidContact');

    // Control characters are named as such, not as a note that is too long.
    server.override.create = refuse(400, {
      code: 'validation_failed',
      message: CONTROL_CHARACTER_MESSAGE,
      details: [{ in: 'body/note', message: CONTROL_CHARACTER_MESSAGE }],
    });
    expect(await store.submit()).toBe(false);
    expect(store.visibleProblem('note')).toBe('controlCharacters');
  });

  it.each([
    [403, { code: 'forbidden', message: 'Sign in to your patient portal to share your whole history.' }, 'HISTORY', 'historyNotAllowed'],
    [403, { code: 'forbidden', message: 'You may not do that.' }, 'RESULT', 'forbidden'],
    [404, { code: 'result_not_available', message: 'There is no released report to share yet.' }, 'RESULT', 'notAvailable'],
    [429, { code: 'too_many_requests', message: 'You have shared a lot in the last hour.' }, 'RESULT', 'tooMany'],
    [500, { code: 'internal_error', message: 'Something went wrong on our side.' }, 'RESULT', 'general'],
    [400, { code: 'bad_request', message: 'No.' }, 'RESULT', 'general'],
  ] as const)('should show a %i %s in the dialog (%s share)', async (status, body, type, problem) => {
    const { store, server } = await opened({ type });
    server.override.create = refuse(status, body);
    store.setField('contactDetails', 'ana@example.com');
    expect(await store.submit()).toBe(false);
    expect(store.formProblem).toBe(problem);
    expect(store.success).toBeNull();
    expect(store.saving).toBe(false);
  });

  it('should say so when the server does not answer', async () => {
    const { store, server } = await opened();
    server.override.create = (_request, response) => response.destroy();
    store.setField('contactDetails', 'ana@example.com');
    expect(await store.submit()).toBe(false);
    expect(store.formProblem).toBe('general');
  });

  it('should leave a 401 to the sign-in redirect (the client logs out) and show no error of its own', async () => {
    const { store, server, logouts } = await opened();
    server.override.create = refuse(401, { code: 'unauthorized', message: 'You need to sign in first.' });
    store.setField('contactDetails', 'ana@example.com');
    expect(await store.submit()).toBe(false);
    expect(logouts()).toBe(1);
    expect(store.formProblem).toBeNull();
  });

  it('should say the list could not load, and load it on Try again', async () => {
    const { store, server } = await setup();
    server.override.list = refuse(500, { code: 'internal_error', message: 'Something went wrong on our side.' });
    await store.open();
    expect(store.loadState).toBe('error');
    delete server.override.list;
    await store.load();
    expect(store.loadState).toBe('loaded');
    expect(store.shares).toHaveLength(2);
  });

  it('should revoke only after yes, and show the revocation on the row', async () => {
    const { store, server } = await opened();
    store.askRevoke(OPENED.id);
    store.cancelRevoke();
    expect(await store.confirmRevoke()).toBe(false);
    expect(server.revokes).toEqual([]);

    store.askRevoke(OPENED.id);
    expect(store.confirmingRevokeId).toBe(OPENED.id);
    expect(await store.confirmRevoke()).toBe(true);
    expect(server.revokes).toEqual([OPENED.id]);
    expect(store.shares.find((share) => share.id === OPENED.id)?.dateRevoked).toBe('2026-11-25T12:00:00.000Z');
    expect(store.confirmingRevokeId).toBeNull();
    expect(store.revokingId).toBeNull();
  });

  it('should mark the row whose revoke failed and keep the share as it was', async () => {
    const { store, server } = await opened();
    server.override.revoke = refuse(404, { code: 'not_found', message: 'Not found.' });
    store.askRevoke(UNOPENED.id);
    expect(await store.confirmRevoke()).toBe(false);
    expect(store.revokeFailedId).toBe(UNOPENED.id);
    expect(store.shares.find((share) => share.id === UNOPENED.id)?.dateRevoked).toBeNull();
  });

  it('should open afresh: an empty form and the list asked again', async () => {
    const { store, requests } = await opened();
    store.setField('contactDetails', 'nope');
    store.touch('contactDetails');
    await store.open();
    expect(store.contactDetails).toBe('');
    expect(store.visibleProblem('contactDetails')).toBeNull();
    expect(requests()).toEqual([`GET ${SHARES_PATH}`, `GET ${SHARES_PATH}`]);
  });
});
