import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';

/** The English text of every deny rule, as a patient reads it. */
const PAGES: [string, string][] = [
  ['status=EXPIRED', 'This link has expired.'],
  ['status=EXPIRED_PATIENT', 'This link has expired.'],
  ['status=CANCELED', 'This appointment has been cancelled.'],
  ['status=DECLINED_BY_PATIENT', 'This appointment was declined.'],
  ['status=REMOVED_BY_OPERATOR', 'This appointment has been removed by the clinic.'],
  ['status=DELETED', 'This appointment has been removed by the clinic.'],
  ['status=ON_HOLD', 'Your request is waiting for review by our radiology team. We will contact you once it has been reviewed.'],
  ['status=RESCHEDULED', 'Access to this page is restricted.'],
  ['revoked=true', 'Access to these results has been revoked.'],
  ['maxAttempts=true', 'You have reached the maximum number of attempts. For your security, access is blocked. Please contact the clinic.'],
  [
    'maxAttempts=true&message=max_attempts_reached_shared',
    'You have reached the maximum number of attempts to open the results shared with you. Please ask the person who shared them to send a new link.',
  ],
  [
    'maxAttempts=true&message=max_attempts_reached_results',
    'You have reached the maximum number of attempts to open your results. Please contact the clinic.',
  ],
  ['resultsExpired=true', 'Access to these results has expired.'],
  ['message=message.pain_score_problem', 'There was a problem saving your pain score. Please tell the clinic staff.'],
  [
    'message=message.booking_request_waiting_protocol_error',
    'There was a problem sending your booking request for review. Please contact the clinic.',
  ],
  ['customMessage=Please+call+us+on+02+5550+0100.', 'Please call us on 02 5550 0100.'],
  ['', 'Sorry, there was a problem with your request. Please try again later or contact the clinic.'],
];

async function messageFor(query: string): Promise<HTMLElement> {
  await renderApp(`/deny${query ? `?${query}` : ''}`);
  // A booking held for review is headed as waiting, every other reason as a page that cannot open.
  const title = query === 'status=ON_HOLD' ? 'Waiting for review' : "We can't open this page";
  const heading = await screen.findByRole('heading', { level: 1, name: title });
  const section = heading.closest('section');
  const message = section?.querySelector<HTMLElement>('.pp-deny-message');
  if (!message) throw new Error('deny message not rendered');
  return message;
}

describe('/deny page', () => {
  it.each(PAGES)('should show the right message for ?%s', async (query, expected) => {
    expect((await messageFor(query)).textContent).toBe(expected);
  });

  it('should show a custom message as text, never as HTML', async () => {
    const message = await messageFor(`customMessage=${encodeURIComponent('<img src=x onerror=alert(1)><b>Call us</b>')}`);
    expect(message.textContent).toBe('<img src=x onerror=alert(1)><b>Call us</b>');
    expect(message.querySelector('img, b')).toBeNull();
  });

  it('should show neither a close control nor a link by default', async () => {
    await messageFor('status=EXPIRED');
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Continue' })).toBeNull();
  });

  it('should offer a close control with showClose=true that takes the patient home', async () => {
    const app = await renderApp('/deny?status=EXPIRED&showClose=true');
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    await screen.findByRole('heading', { level: 1, name: 'Book an appointment' });
    expect(app.router.state.location.pathname).toBe('/');
  });

  it('should link to a same-origin redirectUrl', async () => {
    await messageFor(`redirectUrl=${encodeURIComponent('/contact')}`);
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/contact');
  });

  it('should link to an https redirectUrl', async () => {
    await messageFor(`redirectUrl=${encodeURIComponent('https://harbourrange.example/help')}`);
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('https://harbourrange.example/help');
  });

  it('should ignore a javascript: redirectUrl', async () => {
    await messageFor(`redirectUrl=${encodeURIComponent('javascript:alert(document.cookie)')}`);
    expect(screen.queryByRole('link', { name: 'Continue' })).toBeNull();
    expect(document.querySelector('a[href^="javascript"]')).toBeNull();
  });

  it('should keep the embedded layout and prefix under /iframe', async () => {
    await renderApp(`/iframe/deny?status=CANCELED&redirectUrl=${encodeURIComponent('/contact')}`);
    expect((await screen.findByText('This appointment has been cancelled.')).tagName).toBe('P');
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/iframe/contact');
    expect(document.querySelector('footer')).toBeNull();
  });
});
