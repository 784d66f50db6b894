import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-web/api/client';
import { SignedLinkPage } from '../../../src-web/platform/signed-link-page';

// What the pages a mail's signed link opens share (the reminder's answer, the waitlist offer): the
// link is read on open and nothing changes until a press; a refused link reads as invalid, a
// failed read offers a retry; a 409 is the server's refusal in its own words, with the view read again.

type View = { state: string };
const refused = () => new ApiError('http', 400, 'appointment_reply_link_invalid', 'This link is not valid');
const offline = () => new ApiError('network', 0, 'service_unavailable', 'offline');
const conflict = () => new ApiError('http', 409, 'reply_not_possible', 'This appointment has been cancelled. Please call the clinic.');

function reader(views: View[]) {
  const reads: string[] = [];
  return {
    reads,
    read: async (token: string): Promise<View> => {
      reads.push(token);
      const next = views.shift();
      if (next === undefined) throw offline();
      return next;
    },
  };
}

describe('SignedLinkPage', () => {
  it('reads the link on open and changes nothing until a press; a press takes its answer and counts an outcome', async () => {
    const { read, reads } = reader([{ state: 'OPEN' }]);
    const page = new SignedLinkPage<View, 'confirmed'>(read);
    await page.open('tok');
    expect(page.state).toBe('ready');
    expect(page.view).toEqual({ state: 'OPEN' });
    expect(page.outcome).toBeNull();
    const sent: string[] = [];
    await page.press(async (token) => {
      sent.push(token);
      return { state: 'CONFIRMED' };
    }, 'confirmed');
    expect(sent).toEqual(['tok']);
    expect(reads).toEqual(['tok']);
    expect(page.view).toEqual({ state: 'CONFIRMED' });
    expect(page.outcome).toEqual({ kind: 'confirmed' });
    expect(page.outcomeCount).toBe(1);
    expect(page.saving).toBe(false);
  });

  it('calls a missing or refused link invalid, and a failed read retryable', async () => {
    const none = new SignedLinkPage<View, 'confirmed'>(() => Promise.reject(new Error('never asked')));
    await none.open(null);
    expect(none.state).toBe('invalid');
    const altered = new SignedLinkPage<View, 'confirmed'>(() => Promise.reject(refused()));
    await altered.open('altered');
    expect(altered.state).toBe('invalid');
    const { read } = reader([]);
    const flaky = new SignedLinkPage<View, 'confirmed'>(read);
    await flaky.open('tok');
    expect(flaky.state).toBe('failed');
  });

  it('shows a 409 in the server’s words with the view read again, and a refused link as invalid', async () => {
    const { read, reads } = reader([{ state: 'OPEN' }, { state: 'CANCELLED' }]);
    const page = new SignedLinkPage<View, 'confirmed'>(read);
    await page.open('tok');
    await page.press(() => Promise.reject(conflict()), 'confirmed');
    expect(page.outcome).toEqual({ kind: 'refused', message: 'This appointment has been cancelled. Please call the clinic.' });
    expect(page.view).toEqual({ state: 'CANCELLED' });
    expect(reads).toHaveLength(2);
    await page.press(() => Promise.reject(offline()), 'confirmed');
    expect(page.outcome).toEqual({ kind: 'failed' });
    expect(page.outcomeCount).toBe(2);
    await page.press(() => Promise.reject(refused()), 'confirmed');
    expect(page.state).toBe('invalid');
  });
});
