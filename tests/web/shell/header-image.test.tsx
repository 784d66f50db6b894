import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../helpers/render-app';
import { testConfig } from '../helpers/test-config';

// The confirmation header's link (radiology confirmationHeaderUrl, docs/rules/shell.md#header-image).

const headerImage = () => document.querySelector('.pp-header-image img');

describe('confirmation header link', () => {
  it.each([
    ['https://www.harbourrange.example/after-booking', 'https://www.harbourrange.example/after-booking'],
    ['/contact', '/contact'],
  ])('links the confirmation header to %s, named for the provider', async (url, href) => {
    await renderApp('/authentication', { config: testConfig({ radiology: { confirmationHeaderUrl: url } }) });
    const link = await screen.findByRole('link', { name: 'More from Harbour & Range Radiology' });
    expect(link.getAttribute('href')).toBe(href);
    expect(link.querySelector('img')?.getAttribute('src')).toBe('/api/assets/application/confirmation_header');
  });

  it('keeps the confirmation header a plain picture without the setting, and other pages always', async () => {
    await renderApp('/authentication');
    await screen.findAllByRole('heading', { level: 1 });
    expect(headerImage()?.closest('a')).toBeNull();
    expect(headerImage()?.getAttribute('alt')).toBe('');
  });

  it('ignores it on other pages', async () => {
    const config = testConfig({ radiology: { confirmationHeaderUrl: 'https://www.harbourrange.example/after-booking' } });
    await renderApp('/about', { config });
    await screen.findAllByRole('heading', { level: 1 });
    expect(headerImage()?.closest('a')).toBeNull();
  });

  it('refuses a javascript: value', async () => {
    await renderApp('/authentication', { config: testConfig({ radiology: { confirmationHeaderUrl: 'javascript:alert(1)' } }) });
    await screen.findAllByRole('heading', { level: 1 });
    expect(headerImage()?.closest('a')).toBeNull();
  });
});
