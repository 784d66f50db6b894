import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../helpers/render-app';

describe('loading overlay', () => {
  it('should show while a navigation loads its page and hide when it ends', async () => {
    const app = await renderApp('/privacy');
    await screen.findByRole('heading', { level: 1, name: 'Privacy policy' });
    let navigation: Promise<void> = Promise.resolve();
    act(() => {
      navigation = app.router.navigate('/iframe-test');
    });
    expect(app.router.state.navigation.state).toBe('loading');
    expect((await screen.findByRole('status')).textContent).toBe('Loading…');
    await act(() => navigation);
    await screen.findByRole('heading', { level: 1, name: 'Embedded portal test' });
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });

  it('should show for explicit work started through the UiStore', async () => {
    const app = await renderApp('/privacy');
    await screen.findByRole('heading', { level: 1, name: 'Privacy policy' });
    act(() => app.root.ui.startLoading());
    // On a loaded machine the overlay's render can land a tick later: wait for it, both ways.
    expect((await screen.findByRole('status')).textContent).toBe('Loading…');
    act(() => app.root.ui.stopLoading());
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });
});
