import { describe, expect, it } from 'vitest';
import {
  compactUtc,
  googleCalendarUrl,
  MAX_DETAILS,
  outlookCalendarUrl,
  type CalendarLinkEvent,
} from '../../../../src-web/features/appointments/calendar-links';

const EVENT: CalendarLinkEvent = {
  title: 'MRI knee at Parramatta',
  // 9:30 am in Sydney (UTC+11 in March).
  startsAt: '2026-03-20T22:30:00.000Z',
  endsAt: '2026-03-20T23:15:00.000Z',
  location: 'Parramatta, 12 Church St, Parramatta NSW 2150',
  details: 'Preparation:\nMRI knee: Remove all metal & jewellery; "no" zips.',
};

describe('calendar links', () => {
  it('writes UTC instants without separators for Google', () => {
    expect(compactUtc('2026-03-20T22:30:00.000Z')).toBe('20260320T223000Z');
    expect(compactUtc('2026-03-21T09:30:00+11:00')).toBe('20260320T223000Z');
    expect(() => compactUtc('not a date')).toThrow(RangeError);
  });

  it('builds a Google Calendar template link whose fields read back exactly', () => {
    const url = new URL(googleCalendarUrl(EVENT));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe(EVENT.title);
    expect(url.searchParams.get('dates')).toBe('20260320T223000Z/20260320T231500Z');
    expect(url.searchParams.get('location')).toBe(EVENT.location);
    // Line breaks, ampersands and quotes survive the encoding.
    expect(url.searchParams.get('details')).toBe(EVENT.details);
  });

  it('builds an Outlook compose link with ISO start and end in UTC', () => {
    const url = new URL(outlookCalendarUrl(EVENT));
    expect(url.origin).toBe('https://outlook.live.com');
    expect(url.searchParams.get('rru')).toBe('addevent');
    expect(url.searchParams.get('subject')).toBe(EVENT.title);
    expect(url.searchParams.get('startdt')).toBe('2026-03-20T22:30:00Z');
    expect(url.searchParams.get('enddt')).toBe('2026-03-20T23:15:00Z');
    expect(url.searchParams.get('location')).toBe(EVENT.location);
    expect(url.searchParams.get('body')).toBe(EVENT.details);
  });

  it('shortens a long preparation so the link stays usable', () => {
    const long = { ...EVENT, details: 'x'.repeat(5000) };
    const details = new URL(googleCalendarUrl(long)).searchParams.get('details') ?? '';
    expect(details.length).toBe(MAX_DETAILS);
    expect(details.endsWith('…')).toBe(true);
    expect(new URL(outlookCalendarUrl(long)).searchParams.get('body')?.length).toBe(MAX_DETAILS);
  });
});
