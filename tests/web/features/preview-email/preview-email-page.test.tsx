import type { IncomingMessage, ServerResponse } from 'node:http';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, type RouteHandler } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';

const KEY = 'pVC8vuYWYJuWi6jKwcf5Cg';
const PATH = '/api/notifications/preview_translated_email';
const PREVIEW = {
  subject: 'Your appointment is confirmed: Wednesday 18 March 2026 at 9:00 am AEDT, Chatswood Imaging',
  html: '<!doctype html><html lang="en"><body><p>Dear Ms Ada Lovelace,</p><script>parent.pwned = true</script></body></html>',
  text: 'Dear Ms Ada Lovelace,\n\nYour appointment at Chatswood Imaging is confirmed.\n',
};

function previewServer(answers: Array<(response: ServerResponse) => void>) {
  const queries: URLSearchParams[] = [];
  const routes: Record<string, RouteHandler> = {
    [`GET ${PATH}`]: (request: IncomingMessage, response) => {
      queries.push(new URL(request.url ?? '/', 'http://x').searchParams);
      const answer = answers[Math.min(queries.length - 1, answers.length - 1)];
      if (answer) answer(response);
    },
  };
  return { routes, queries };
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

  it('should say which parameters are missing and ask the server nothing', async () => {
    const fake = previewServer([(response) => json(response, 200, PREVIEW)]);
    const app = await renderApp(pageUrl('template=booking_confirmation'), { routes: fake.routes });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This address is missing lang, referenceId.');
    expect(fake.queries).toHaveLength(0);
    expect(app.server.requests.some((request) => request.url.startsWith(PATH))).toBe(false);
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
