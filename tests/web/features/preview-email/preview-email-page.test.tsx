import type { IncomingMessage, ServerResponse } from 'node:http';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, type RouteHandler } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';
// antd's Form, Select and Table ask jsdom for matchMedia and ResizeObserver, which it lacks.
import '../../helpers/jsdom-for-antd';

const KEY = 'pVC8vuYWYJuWi6jKwcf5Cg';
const PATH = '/api/notifications/preview_translated_email';
const PREVIEW = {
  subject: 'Your appointment is confirmed: Wednesday 18 March 2026 at 9:00 am AEDT, Chatswood Imaging',
  html: '<!doctype html><html lang="en"><body><p>Dear Ms Ada Lovelace,</p><script>parent.pwned = true</script></body></html>',
  text: 'Dear Ms Ada Lovelace,\n\nYour appointment at Chatswood Imaging is confirmed.\n',
};

const OPTIONS = {
  templates: [
    { name: 'booking_confirmation', reference: 'booking' },
    { name: 'results_ready', reference: 'report' },
  ],
  languages: ['en', 'en-AU', 'en-NZ', 'en-CA', 'mk'],
  references: {
    booking: [
      { id: '0b5c0f2e-0000-4000-8000-000000000001', label: 'Ada L. · X-ray chest · 2026-03-18 09:00' },
      { id: '0b5c0f2e-0000-4000-8000-000000000002', label: 'Ben K. · CT brain · 2026-03-19 10:00' },
    ],
    booking_request: [],
    report: [{ id: '0b5c0f2e-0000-4000-8000-00000000000a', label: 'Ada L. · MRI knee · ACC-1' }],
  },
};

function previewServer(answers: Array<(response: ServerResponse) => void>) {
  const queries: URLSearchParams[] = [];
  const sent: unknown[] = [];
  const routes: Record<string, RouteHandler> = {
    [`GET ${PATH}`]: (request: IncomingMessage, response) => {
      queries.push(new URL(request.url ?? '/', 'http://x').searchParams);
      const answer = answers[Math.min(queries.length - 1, answers.length - 1)];
      if (answer) answer(response);
    },
    ['GET /api/notifications/preview_options']: (_request, response) => json(response, 200, OPTIONS),
    [`POST ${PATH}/send_test`]: (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        sent.push(JSON.parse(body));
        json(response, 202, { recipient: 'sam.staff@demo-radiology.example', subject: PREVIEW.subject });
      });
    },
  };
  return { routes, queries, sent };
}

const pageUrl = (query: string) => `/preview-email?${query}`;
const FULL_QUERY = `template=booking_confirmation&lang=mk&referenceId=${KEY}`;

describe('e-mail preview page', () => {
  it('should show the subject, the HTML in a sandboxed frame with a title, and the text version of the mail the query names', async () => {
    const fake = previewServer([(response) => json(response, 200, PREVIEW)]);
    await renderApp(pageUrl(FULL_QUERY), { routes: fake.routes });
    expect(await screen.findByTestId('preview-email-subject')).toHaveProperty('textContent', PREVIEW.subject);
    expect(screen.getByRole('heading', { level: 1, name: 'E-mail preview' })).toBeTruthy();
    const frame = screen.getByTitle(`HTML version of the e-mail: ${PREVIEW.subject}`);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    // The server's page of the same preview (its own policy keeps the mail's inline styles).
    const src = new URL(frame.getAttribute('src') ?? '', 'http://portal.test');
    expect(src.pathname).toBe('/api/notifications/preview_translated_email/html');
    expect(Object.fromEntries(src.searchParams)).toEqual({ template: 'booking_confirmation', lang: 'mk', referenceId: KEY });
    expect(screen.getByTestId('preview-email-text').textContent).toBe(PREVIEW.text);
    expect(screen.getByText('This is a preview: nothing has been sent.')).toBeTruthy();
    expect(fake.queries).toHaveLength(1);
    expect(Object.fromEntries(fake.queries[0] ?? [])).toEqual({ template: 'booking_confirmation', lang: 'mk', referenceId: KEY });
    expect((window as unknown as { pwned?: boolean }).pwned).toBeUndefined();
  });

  it('should show the loading state until the preview arrives', async () => {
    let release: () => void = () => undefined;
    const fake = previewServer([(response) => (release = () => json(response, 200, PREVIEW))]);
    await renderApp(pageUrl(FULL_QUERY), { routes: fake.routes });
    expect(await screen.findByText('Loading…')).toBeTruthy();
    await waitFor(() => expect(fake.queries).toHaveLength(1));
    release();
    await screen.findByTestId('preview-email-subject');
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('should preselect the first template, the page language and the newest booking when the address names none', async () => {
    const fake = previewServer([(response) => json(response, 200, PREVIEW)]);
    await renderApp('/preview-email', { routes: fake.routes });
    await screen.findByTestId('preview-email-subject');
    expect(screen.queryByText(/This address is missing/)).toBeNull();
    expect(Object.fromEntries(fake.queries[0] ?? [])).toEqual({
      template: 'booking_confirmation',
      lang: 'en-AU',
      referenceId: OPTIONS.references.booking[0]?.id,
    });
    expect(screen.getByLabelText('Template')).toBeTruthy();
    expect(screen.getByLabelText('Language')).toBeTruthy();
    expect(screen.getByLabelText('Booking or report')).toBeTruthy();
  });

  it('should take the newest record of the right kind when the address names only the template', async () => {
    const fake = previewServer([(response) => json(response, 200, PREVIEW)]);
    await renderApp(pageUrl('template=results_ready&lang=mk'), { routes: fake.routes });
    await screen.findByTestId('preview-email-subject');
    expect(Object.fromEntries(fake.queries[0] ?? [])).toEqual({
      template: 'results_ready',
      lang: 'mk',
      referenceId: OPTIONS.references.report[0]?.id,
    });
  });

  it('should send the previewed mail to the staff member and say where it went', async () => {
    const fake = previewServer([(response) => json(response, 200, PREVIEW)]);
    await renderApp(pageUrl(FULL_QUERY), { routes: fake.routes });
    await screen.findByTestId('preview-email-subject');
    fireEvent.click(screen.getByRole('button', { name: 'Send a test to me' }));
    expect(await screen.findByText(/Sent to sam\.staff@demo-radiology\.example\./)).toBeTruthy();
    expect(fake.sent).toEqual([{ template: 'booking_confirmation', lang: 'mk', referenceId: KEY }]);
  });

  it.each([
    [400, { code: 'validation_failed', message: 'Unknown e-mail template "otp"; known templates: booking_confirmation.' }],
    [403, { code: 'forbidden', message: 'Your account may not do that.' }],
    [404, { code: 'not_found', message: 'No appointment or booking has this reference id.' }],
  ])('should show the message the server gave with its %i', async (status, body) => {
    const fake = previewServer([(response) => json(response, status, body)]);
    await renderApp(pageUrl(FULL_QUERY), { routes: fake.routes });
    expect((await screen.findByRole('alert')).textContent).toBe(body.message);
    expect(screen.queryByTitle(/HTML version/)).toBeNull();
  });

  it('should say staff sign-in is needed on 401, and stay on the page', async () => {
    const fake = previewServer([
      (response) => json(response, 401, { code: 'unauthorized', message: 'Please sign in with your organisation account.' }),
    ]);
    const app = await renderApp(pageUrl(FULL_QUERY), { routes: fake.routes });
    expect((await screen.findByRole('alert')).textContent).toContain('Staff sign-in is needed to preview e-mails.');
    expect(app.router.state.location.pathname).toBe('/preview-email');
  });

  it('should offer Try again when the server fails, and show the preview once it answers', async () => {
    const fake = previewServer([
      (response) =>
        json(response, 503, { code: 'service_unavailable', message: 'The service is unavailable right now; try again shortly.' }),
      (response) => json(response, 200, PREVIEW),
    ]);
    await renderApp(pageUrl(FULL_QUERY), { routes: fake.routes });
    expect((await screen.findByRole('alert')).textContent).toContain('The preview could not be loaded. Please try again.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('preview-email-subject');
    expect(fake.queries).toHaveLength(2);
  });
});

describe('e-mail preview page inside /iframe', () => {
  it('should load the preview in the embedded layout too', async () => {
    const fake = previewServer([(response) => json(response, 200, PREVIEW)]);
    await renderApp(`/iframe${pageUrl(FULL_QUERY)}`, { routes: fake.routes });
    expect(await screen.findByTestId('preview-email-subject')).toHaveProperty('textContent', PREVIEW.subject);
    expect(document.querySelector('footer')).toBeNull();
  });
});
