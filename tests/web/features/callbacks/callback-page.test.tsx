import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, readJsonBody, type RouteHandler } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';

// The "Ask us to call you" page (docs/rules/callbacks.md#the-patients-page): the contract's rules
// in the patient's words as they go, the request as the server takes it, and what happens after.

async function openPage(url: string, answer: RouteHandler) {
  const app = await renderApp(url, { routes: { 'POST /api/callback-requests': answer } });
  await screen.findByRole('heading', { level: 1, name: 'Ask us to call you' });
  return app;
}

function fillIn(): void {
  fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Marija' } });
  fireEvent.change(screen.getByLabelText('Last name'), { target: { value: "O'Neill-Petrova" } });
  fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '(04) 1234-5678' } });
  fireEvent.click(screen.getByLabelText('Weekday afternoon (12 pm to 6 pm)'));
  fireEvent.click(screen.getByLabelText('Saturday morning (8 am to 12 pm)'));
  fireEvent.change(screen.getByLabelText('What would you like to talk about?'), { target: { value: 'No time suits me.' } });
}

describe('/callback', () => {
  it('should name each problem under its field, focus the first, and send nothing', async () => {
    const sent: unknown[] = [];
    await openPage('/callback', (request, response) => {
      sent.push(request.url);
      json(response, 201, {});
    });
    fireEvent.click(screen.getByRole('button', { name: 'Ask us to call you' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('First name')));
    expect(screen.getByText('Please enter your first name (letters, spaces, hyphens and apostrophes).')).toBeTruthy();
    expect(screen.getByText('Please enter a phone number of 9 to 15 digits, optionally starting with +.')).toBeTruthy();
    expect(screen.getByText('Please choose at least one time when we may call you.')).toBeTruthy();
    expect(screen.getByText('Please tell us in up to 500 characters what the call is about.')).toBeTruthy();
    expect(screen.getByLabelText('Phone number').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '+61 412 345' } });
    expect(screen.getByText('Please enter a phone number of 9 to 15 digits, optionally starting with +.')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('should send the request with the exam from the link, and say when and on which number we will call', async () => {
    const bodies: unknown[] = [];
    await openPage('/callback?exam=mri-knee', (request, response) => {
      void readJsonBody(request).then((body) => {
        bodies.push(body);
        json(response, 201, {
          id: '6f1c2d3e-0000-4000-8000-000000000000',
          phone: '0412345678',
          windows: ['weekdayAfternoon', 'saturdayMorning'],
        });
      });
    });
    expect(screen.getByText('We will let the team know which exam you were booking.')).toBeTruthy();
    fillIn();
    expect(await screen.findByText('17 of 500 characters')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ask us to call you' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('We will call you on 0412345678 during a weekday afternoon or a Saturday morning.');
    expect(bodies).toEqual([
      {
        firstName: 'Marija',
        lastName: "O'Neill-Petrova",
        phone: '(04) 1234-5678',
        windows: ['weekdayAfternoon', 'saturdayMorning'],
        reason: 'No time suits me.',
        examSlug: 'mri-knee',
      },
    ]);
  });

  it('should say when the limits free, keeping what was typed', async () => {
    await openPage('/callback', (_request, response) =>
      json(response, 429, { code: 'too_many_requests', message: 'Too many', details: { retryAfterSeconds: 600 } }),
    );
    fillIn();
    fireEvent.click(screen.getByRole('button', { name: 'Ask us to call you' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Too many callback requests have been made .* You can try again after .+, or call us\.$/);
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Marija');
  });

  it('should show the server’s words when it refuses a field', async () => {
    await openPage('/callback', (_request, response) =>
      json(response, 400, { code: 'validation_failed', message: 'The exam is not one we know.' }),
    );
    fillIn();
    fireEvent.click(screen.getByRole('button', { name: 'Ask us to call you' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Some details were not accepted:');
    expect(alert.textContent).toContain('The exam is not one we know.');
  });
});
