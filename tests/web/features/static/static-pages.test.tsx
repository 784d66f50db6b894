import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';
import { testConfig } from '../../helpers/test-config';

describe('/about', () => {
  it('should show the About heading, the provider name and its sanitised about text', async () => {
    const config = testConfig({ radiology: { about: '<p>Imaging since 1998.</p><img src="x" onerror="window.pwned=1">' } });
    await renderApp('/about', { config });
    expect(await screen.findByRole('heading', { level: 1, name: 'About' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Harbour & Range Radiology' })).toBeTruthy();
    const text = await screen.findByText('Imaging since 1998.');
    expect(text.closest('.pp-rich-text')?.querySelector('[onerror]')).toBeNull();
  });

  it('should link out when the provider has its own about page', async () => {
    await renderApp('/about', { config: testConfig({ radiology: { aboutUrl: 'https://harbourrange.example/about' } }) });
    const link = await screen.findByRole('link', { name: 'Read about Harbour & Range Radiology' });
    expect(link.getAttribute('href')).toBe('https://harbourrange.example/about');
  });
});

describe('/contact', () => {
  it('should show the contact text and every clinic with address, tel: link and opening hours from Monday', async () => {
    await renderApp('/contact');
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact us' })).toBeTruthy();
    expect((await screen.findByRole('link', { name: '02 5550 0100' })).getAttribute('href')).toBe('tel:0255500100');
    expect(screen.getByText('If this is a medical emergency, call Triple Zero (000).')).toBeTruthy();

    const clinic = (await screen.findByRole('heading', { level: 3, name: 'Parramatta' })).closest('li');
    if (!clinic) throw new Error('clinic card missing');
    const card = within(clinic);
    expect(card.getByText('Level 2, 118 Macquarie Street, Parramatta NSW 2150')).toBeTruthy();
    expect(card.getByRole('link', { name: '02 5550 0110' }).getAttribute('href')).toBe('tel:0255500110');
    expect(card.getByRole('link', { name: 'parramatta@harbourrange.example' }).getAttribute('href')).toBe(
      'mailto:parramatta@harbourrange.example',
    );
    const days = [...clinic.querySelectorAll('.pp-hours dt')].map((dt) => dt.textContent);
    expect(days).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    const hours = [...clinic.querySelectorAll('.pp-hours dd')].map((dd) => dd.textContent);
    expect(hours[0]).toMatch(/^7:30\s?am to 6:00\s?pm$/);
    expect(hours[1]).toBe('Closed');
    expect(hours[5]).toMatch(/^8:00\s?am to 12:00\s?pm$/);

    const newcastle = (await screen.findByRole('heading', { level: 3, name: 'Newcastle' })).closest('li');
    expect(newcastle?.querySelector('a[href^="mailto:"]')).toBeNull();
  });

  it('should start the opening hours on Sunday in en-CA', async () => {
    await renderApp('/contact', { config: testConfig({ app: { locale: 'en-CA' } }) });
    const clinic = (await screen.findByRole('heading', { level: 3, name: 'Parramatta' })).closest('li');
    expect(clinic?.querySelector('.pp-hours dt')?.textContent).toBe('Sunday');
  });

  it('should say so when the clinics cannot be loaded', async () => {
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      await renderApp('/contact', {
        routes: {
          'GET /api/config/contact': (_request, response) => json(response, 503, { code: 'service_unavailable', message: 'Down' }),
        },
      });
      expect((await screen.findByRole('alert')).textContent).toBe('We could not load the clinic details. Please try again later.');
    } finally {
      console.warn = warn;
    }
  });
});

describe('/terms', () => {
  it('should show the terms HTML from the server, sanitised again', async () => {
    await renderApp('/terms');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Using this portal' })).toBeTruthy();
    expect(screen.getByText('Bookings are subject to availability.')).toBeTruthy();
    expect(document.querySelector('main script')).toBeNull();
  });
});

describe('/privacy', () => {
  it('should link to the configured privacy policy', async () => {
    await renderApp('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Read our privacy policy' }).getAttribute('href')).toBe('https://harbourrange.example/privacy');
  });

  it('should say the policy is not online when no URL is configured', async () => {
    await renderApp('/privacy', { config: testConfig({ radiology: { privacyPolicyUrl: null } }) });
    expect(await screen.findByText('Our privacy policy is not available online. Please contact us for a copy.')).toBeTruthy();
  });
});

describe('Macedonian', () => {
  it('should render the shell in Macedonian for the mk locale', async () => {
    await renderApp('/about', { config: testConfig({ app: { locale: 'mk' } }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'За нас' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Прескокни до главната содржина' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('mk');
  });
});
