import { describe, expect, it } from 'vitest';
import {
  denyActions,
  denyMessage,
  readDenyQuery,
  trustedOriginsOf,
  type DenyMessage,
  type DenyQuery,
} from '../../../../src-web/features/deny/deny-message';

/** Every deny-page rule (docs/rules/patient-access.md#deny-page), one row each, in the order they apply. */
const RULES: [string, DenyQuery, DenyMessage][] = [
  ['status EXPIRED', { status: 'EXPIRED' }, { key: 'deny.expired' }],
  ['status EXPIRED_PATIENT', { status: 'EXPIRED_PATIENT' }, { key: 'deny.expired' }],
  ['status CANCELED', { status: 'CANCELED' }, { key: 'deny.canceled' }],
  ['status DECLINED_BY_PATIENT', { status: 'DECLINED_BY_PATIENT' }, { key: 'deny.declined' }],
  ['status REMOVED_BY_OPERATOR', { status: 'REMOVED_BY_OPERATOR' }, { key: 'deny.removedByOperator' }],
  ['status DELETED', { status: 'DELETED' }, { key: 'deny.removedByOperator' }],
  ['status ON_HOLD', { status: 'ON_HOLD' }, { key: 'deny.waitingForProtocol' }],
  ['any other status', { status: 'BOOKED' }, { key: 'deny.restricted' }],
  ['status in lower case', { status: 'canceled' }, { key: 'deny.canceled' }],
  ['revoked=true', { revoked: 'true' }, { key: 'deny.revoked' }],
  ['maxAttempts with no name', { maxAttempts: 'true' }, { key: 'message.max_attempts_reached' }],
  ['maxAttempts present but empty', { maxAttempts: '' }, { key: 'message.max_attempts_reached' }],
  [
    'maxAttempts naming the shared message in message',
    { maxAttempts: 'true', message: 'max_attempts_reached_shared' },
    { key: 'message.max_attempts_reached_shared' },
  ],
  [
    'maxAttempts naming the results message with its key prefix',
    { maxAttempts: 'true', message: 'message.max_attempts_reached_results' },
    { key: 'message.max_attempts_reached_results' },
  ],
  ['maxAttempts carrying the name itself', { maxAttempts: 'max_attempts_reached_shared' }, { key: 'message.max_attempts_reached_shared' }],
  ['maxAttempts with an unknown name', { maxAttempts: 'true', message: 'please_send_money' }, { key: 'message.max_attempts_reached' }],
  ['resultsExpired=true', { resultsExpired: 'true' }, { key: 'deny.resultsExpired' }],
  ['a known named message (pain score)', { message: 'message.pain_score_problem' }, { key: 'message.pain_score_problem' }],
  [
    'a known named message (protocol)',
    { message: 'booking_request_waiting_protocol_error' },
    { key: 'message.booking_request_waiting_protocol_error' },
  ],
  [
    'customMessage',
    { customMessage: 'Please call the clinic on 02 5550 0100.' },
    { key: 'deny.custom', text: 'Please call the clinic on 02 5550 0100.' },
  ],
  ['nothing', {}, { key: 'deny.generic' }],
  ['an unknown message name alone', { message: 'anything.you.like' }, { key: 'deny.generic' }],
  ['blank customMessage', { customMessage: '   ' }, { key: 'deny.generic' }],
  ['revoked=false', { revoked: 'false' }, { key: 'deny.generic' }],
  ['maxAttempts=false', { maxAttempts: 'false' }, { key: 'deny.generic' }],
];

describe('denyMessage', () => {
  it.each(RULES)('should choose the right message for %s', (_name, query, expected) => {
    expect(denyMessage(query)).toEqual(expected);
  });

  it('should apply the rules in their documented order when several are present', () => {
    const all: DenyQuery = { status: 'CANCELED', revoked: 'true', maxAttempts: 'true', resultsExpired: 'true', customMessage: 'x' };
    expect(denyMessage(all).key).toBe('deny.canceled');
    expect(denyMessage({ ...all, status: null }).key).toBe('deny.revoked');
    expect(denyMessage({ ...all, status: null, revoked: null }).key).toBe('message.max_attempts_reached');
    expect(denyMessage({ ...all, status: null, revoked: null, maxAttempts: null }).key).toBe('deny.resultsExpired');
    expect(denyMessage({ customMessage: 'x', message: 'pain_score_problem' }).key).toBe('message.pain_score_problem');
    expect(denyMessage({ ...all, status: null, revoked: null, maxAttempts: null, resultsExpired: null })).toEqual({
      key: 'deny.custom',
      text: 'x',
    });
  });

  it('should not let a message name reach prototype properties', () => {
    expect(denyMessage({ maxAttempts: 'true', message: '__proto__' }).key).toBe('message.max_attempts_reached');
    expect(denyMessage({ message: 'constructor' }).key).toBe('deny.generic');
    expect(denyMessage({ status: 'toString' }).key).toBe('deny.restricted');
  });
});

describe('denyActions', () => {
  it('should show the close control only for showClose=true', () => {
    expect(denyActions({ showClose: 'true' }).showClose).toBe(true);
    expect(denyActions({ showClose: 'false' }).showClose).toBe(false);
    expect(denyActions({}).showClose).toBe(false);
  });

  it.each([
    ['/appointments/abc', '/appointments/abc'],
    ['https://harbourrange.example/help', 'https://harbourrange.example/help'],
    ['http://harbourrange.example/', 'http://harbourrange.example/'],
    ['https://evil.example/phish', null],
    ['https://harbourrange.example.evil.example/', null],
    ['javascript:alert(1)', null],
    ['JavaScript:alert(1)', null],
    [' javascript:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['//evil.example/path', null],
    ['/\\evil.example', null],
    ['vbscript:msgbox(1)', null],
    ['evil.example', null],
    ['', null],
  ])('should accept %j as redirect target %j', (raw, expected) => {
    const trusted = trustedOriginsOf(
      ['https://harbourrange.example/about', 'http://harbourrange.example/x', null, '/terms'],
      'http://portal.test',
    );
    expect(denyActions({ redirectUrl: raw }, trusted).redirectUrl).toBe(expected);
  });

  it('should offer an absolute link only on a trusted origin', () => {
    expect(denyActions({ redirectUrl: 'https://harbourrange.example/help' }).redirectUrl).toBeNull();
    expect(denyActions({ redirectUrl: 'http://portal.test/a/b' }, ['http://portal.test']).redirectUrl).toBe('http://portal.test/a/b');
  });
});

describe('readDenyQuery', () => {
  it('should read every parameter of the deny route', () => {
    const params = new URLSearchParams(
      'status=ON_HOLD&revoked=true&maxAttempts=1&message=m&resultsExpired=true&customMessage=c&showClose=true&redirectUrl=%2Fabout',
    );
    expect(readDenyQuery(params)).toEqual({
      status: 'ON_HOLD',
      revoked: 'true',
      maxAttempts: '1',
      message: 'm',
      resultsExpired: 'true',
      customMessage: 'c',
      showClose: 'true',
      redirectUrl: '/about',
    });
  });
});
