import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';
import { REFERRER_USER } from '../../helpers/staff-users';

// /image-viewer-access (docs/identity.md#the-browser). The sign-in itself (silent, popup, redirect) runs
// against the real identity provider in tests/e2e/staff-sign-in.spec.ts.

const REFERRER = REFERRER_USER;
const ERROR =
  'We could not confirm that you may view these images. Sign in with an account that has access, or ask the practice that sent you the link.';

describe('image viewer sign-in page', () => {
  it('should say the sign-in failed, and why, when the portal has no identity provider', async () => {
    await renderApp('/image-viewer-access');
    expect(await screen.findByRole('heading', { level: 1, name: 'Image viewer sign-in' })).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(ERROR);
    expect(alert.textContent).toContain('Sign-in for the image viewer is not set up for this portal.');
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('should confirm a signed-in referring doctor', async () => {
    await renderApp('/image-viewer-access', { staffUser: REFERRER });
    expect(
      await screen.findByText(`You are signed in as ${REFERRER.username}. You can now open the image links you received.`),
    ).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('should refuse an account whose roles do not include image access', async () => {
    await renderApp('/image-viewer-access', { staffUser: { ...REFERRER, roles: ['kioskAdmin'] } });
    expect((await screen.findByRole('alert')).textContent).toContain(ERROR);
  });

  it('should go on to the return URL of this site once signed in, and ignore one elsewhere', async () => {
    const app = await renderApp('/image-viewer-access?returnUrl=%2Fabout', { staffUser: REFERRER });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/about'));
    app.unmount();
    const other = await renderApp('/image-viewer-access?returnUrl=https%3A%2F%2Fevil.example%2F', { staffUser: REFERRER });
    expect(await screen.findByText(/You are signed in as/)).toBeTruthy();
    expect(other.router.state.location.pathname).toBe('/image-viewer-access');
  });
});
