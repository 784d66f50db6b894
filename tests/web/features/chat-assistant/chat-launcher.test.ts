import { describe, expect, it } from 'vitest';
import { chatAllowedOn } from '../../../../src-web/features/chat-assistant/chat-launcher';

// Where "Chat with us" shows (docs/rules/chat.md#where-it-shows): patient pages, framed too; never kiosk, staff or referrer pages.
describe('chatAllowedOn', () => {
  it.each([
    ['/', ''],
    ['/contact', ''],
    ['/callback', '?exam=xr-chest'],
    ['/appointments/DQZGrZ3wpC5qCgHhYxQeMw', ''],
    ['/booking-requests/abc', ''],
    ['/iframe/select-region', ''],
    ['/iframe', '?step=1'],
  ])('shows on %s%s', (pathname, search) => {
    expect(chatAllowedOn(pathname, search)).toBe(true);
  });

  it.each([
    ['/kiosk', ''],
    ['/iframe/kiosk', ''],
    ['/appointments/DQZGrZ3wpC5qCgHhYxQeMw/kiosk', ''],
    ['/', '?kioskMode=true'],
    ['/', '?staffBooking=true'],
    ['/staff', ''],
    ['/staff/callbacks', ''],
    ['/referrer/quick-report', ''],
    ['/referrer-access', ''],
    ['/preview-email', ''],
    ['/iframe/staff', ''],
  ])('does not show on %s%s', (pathname, search) => {
    expect(chatAllowedOn(pathname, search)).toBe(false);
  });
});
