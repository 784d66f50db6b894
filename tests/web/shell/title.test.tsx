import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../helpers/render-app';
import { testConfig } from '../helpers/test-config';

describe('document title', () => {
  it('should keep document.title by the title rule with a meta title', async () => {
    document.title = 'Patient portal';
    await renderApp('/about');
    await screen.findByRole('heading', { level: 1, name: 'About' });
    // The title is set by an effect after the page renders.
    await waitFor(() => expect(document.title).toBe('Harbour & Range Radiology | Patient portal'));
  });

  it('should use the radiology name alone without a meta title', async () => {
    await renderApp('/about', { config: testConfig({ app: { metaTitle: null } }) });
    await screen.findByRole('heading', { level: 1, name: 'About' });
    await waitFor(() => expect(document.title).toBe('Harbour & Range Radiology'));
  });
});
