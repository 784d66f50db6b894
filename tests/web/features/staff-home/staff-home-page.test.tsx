import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';
import { ADMIN_TOOL_NAMES, REFERRER_USER, STAFF_IDENTITY_APP, STAFF_USER } from '../../helpers/staff-users';
import { testConfig } from '../../helpers/test-config';

// /staff: the tools a signed-in person's roles allow (docs/rules/staff-access.md#staff-home).

const WITH_IDENTITY = testConfig({ app: { ...STAFF_IDENTITY_APP, referrerReportQualityFeedbackEnabled: true } });

async function toolsAt(options: Parameters<typeof renderApp>[1]) {
  await renderApp('/staff', options);
  await screen.findByRole('heading', { level: 1, name: 'Staff tools' });
  const list = screen.queryByRole('list', { name: 'Your tools' });
  return list === null
    ? []
    : within(list)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('staff home', () => {
  it('should list a staff member their tools, each a link with what it is for', async () => {
    const tools = await toolsAt({ staffUser: STAFF_USER, config: WITH_IDENTITY });
    expect(tools).toEqual([
      ['Book for a patient', '/?staffBooking=true'],
      ['Callback requests', '/staff/callbacks'],
      ['Confirmations', '/staff/appointments'],
      ['Booking requests', '/staff/booking-requests'],
      ['Screening reviews', '/staff/screening-reviews'],
      ['E-mail preview', '/preview-email'],
      ['Referrer feedback', '/staff/referrer-feedback'],
    ]);
    expect(screen.getByText('Signed in as sam.staff@demo-radiology.example.')).toBeTruthy();
    expect(screen.getByText(/Book an appointment for a patient on the phone/)).toBeTruthy();
  });

  it('should give an administrator every tool, the admin panel last', async () => {
    const tools = await toolsAt({ staffUser: { ...STAFF_USER, roles: ['admin'] }, config: WITH_IDENTITY });
    expect(tools.map(([name]) => name)).toEqual(ADMIN_TOOL_NAMES);
  });

  it('should show a referrer their reports and the FAQ, and no staff tool', async () => {
    const tools = await toolsAt({ staffUser: REFERRER_USER, config: WITH_IDENTITY });
    expect(tools.map(([name]) => name)).toEqual(["My patients' reports", 'Report feedback FAQ']);
  });

  it('should ask someone not signed in to sign in, and list nothing', async () => {
    const tools = await toolsAt({ config: WITH_IDENTITY });
    expect(tools).toEqual([]);
    expect(screen.getByText('Sign in with your organisation account to see the tools your role allows.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('should say so where the portal has no staff sign-in', async () => {
    await toolsAt({});
    expect(screen.getByText('Staff sign-in is not set up for this portal.')).toBeTruthy();
  });
});
