import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadPageTexts } from '../../../src-web/i18n/page-texts';
import { SUPPORTED_LOCALES } from '@contract/api/config';
import { createApiClient } from '../../../src-web/api/client';
import { loadAntdLocale } from '../../../src-web/i18n/antd-locale';
import { applyDateLocale, portalDayjsLocaleName } from '../../../src-web/i18n/date-locale';
import { resolveLocale, weekStartsOn } from '../../../src-web/i18n/locale';
import { RootStore } from '../../../src-web/stores/root-store';
import { json, startApiServer } from '../helpers/api-server';
import { testConfig } from '../helpers/test-config';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('resolveLocale', () => {
  it('should keep every supported locale as it is', () => {
    for (const locale of SUPPORTED_LOCALES) {
      const warnings: string[] = [];
      expect(resolveLocale(locale, (message) => warnings.push(message))).toBe(locale);
      expect(warnings).toEqual([]);
    }
  });

  it('should forgive case and underscores in configured locales', () => {
    expect(resolveLocale('en_au')).toBe('en-AU');
    expect(resolveLocale('EN-ca')).toBe('en-CA');
    expect(resolveLocale('MK')).toBe('mk');
  });

  it('should warn and fall back to en-AU for an unsupported locale', () => {
    const warnings: string[] = [];
    expect(resolveLocale('fr-FR', (message) => warnings.push(message))).toBe('en-AU');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('fr-FR');
    expect(warnings[0]).toContain('en-AU');
  });

  it('should warn through console.warn by default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(resolveLocale('de')).toBe('en-AU');
    expect(resolveLocale(null)).toBe('en-AU');
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe('weekStartsOn', () => {
  it('should start the week on Monday everywhere except en-CA', () => {
    expect(weekStartsOn('en')).toBe(1);
    expect(weekStartsOn('en-AU')).toBe(1);
    expect(weekStartsOn('en-NZ')).toBe(1);
    expect(weekStartsOn('mk')).toBe(1);
  });

  it('should start the week on Sunday in en-CA', () => {
    expect(weekStartsOn('en-CA')).toBe(0);
  });
});

describe('applyDateLocale', () => {
  // Wednesday 2026-11-18: the week starts on Monday 16th, or on Sunday 15th in Canada.
  const wednesday = '2026-11-18';

  it('should make dayjs weeks start on Monday for en, en-AU, en-NZ and mk', async () => {
    for (const locale of ['en', 'en-AU', 'en-NZ', 'mk'] as const) {
      await applyDateLocale(locale);
      expect(dayjs(wednesday).startOf('week').format('YYYY-MM-DD')).toBe('2026-11-16');
    }
  });

  it('should make dayjs weeks start on Sunday for en-CA', async () => {
    await applyDateLocale('en-CA');
    expect(dayjs(wednesday).startOf('week').format('YYYY-MM-DD')).toBe('2026-11-15');
  });

  it('should point antd date pickers at the portal dayjs locale', async () => {
    const antd = await loadAntdLocale('en-CA');
    expect(antd.DatePicker?.lang.locale).toBe(portalDayjsLocaleName('en-CA'));
    expect(dayjs().locale(portalDayjsLocaleName('en-CA')).startOf('week').day()).toBe(0);
    const mk = await loadAntdLocale('mk');
    expect(mk.locale).toBe('mk');
    expect(dayjs().locale(portalDayjsLocaleName('mk')).startOf('week').day()).toBe(1);
  });
});

describe('I18nStore', () => {
  async function storeFor(locale: string, overlay: Record<string, unknown> = {}) {
    const server = await startApiServer({ 'GET /api/assets/translations': (_request, response) => json(response, 200, overlay) });
    const root = new RootStore({ config: testConfig({ app: { locale } }), client: createApiClient(server.url), window });
    await root.i18n.init();
    return { root, server };
  }

  it('should warn about an unknown configured locale and run in en-AU', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { root, server } = await storeFor('xx-YY');
    expect(warn.mock.calls.some(([message]) => String(message).includes('xx-YY'))).toBe(true);
    expect(root.i18n.locale).toBe('en-AU');
    expect(root.i18n.weekStart).toBe(1);
    expect(document.documentElement.lang).toBe('en-AU');
    expect(root.i18n.i18n.t('contact.emergency')).toBe('If this is a medical emergency, call Triple Zero (000).');
    expect(server.requests.map((request) => request.url)).toEqual(['/api/assets/translations?lang=en-AU']);
  });

  it('should fall back to English for keys a regional catalogue does not override', async () => {
    const { root } = await storeFor('en-NZ');
    await loadPageTexts();
    expect(root.i18n.i18n.t('contact.emergency')).toBe('If this is a medical emergency, call 111.');
    expect(root.i18n.i18n.t('notFound.text')).toBe('We could not find the page you were looking for.');
  });

  it('should use the Macedonian catalogue for mk', async () => {
    const { root } = await storeFor('mk');
    await loadPageTexts();
    expect(document.documentElement.lang).toBe('mk');
    expect(root.i18n.i18n.t('message.loading')).toBe('Се вчитува…');
    expect(root.i18n.i18n.t('notFound.text')).toBe('Не ја најдовме страницата што ја баравте.');
  });

  it('should let the server overlay win over the built-in catalogues, key by key', async () => {
    const { root } = await storeFor('en-CA', { message: { loading: 'One moment please…' } });
    expect(root.i18n.weekStart).toBe(0);
    expect(root.i18n.i18n.t('message.loading')).toBe('One moment please…');
    expect(root.i18n.i18n.t('message.access_read_only')).toBe('Read-only access');
  });

  it('should keep working with the built-in catalogues when the overlay cannot be loaded', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const server = await startApiServer({});
    const root = new RootStore({ config: testConfig(), client: createApiClient(server.url), window });
    await root.i18n.init();
    expect(root.i18n.i18n.t('message.loading')).toBe('Loading…');
    expect(warn.mock.calls.some(([message]) => String(message).includes('server translations unavailable'))).toBe(true);
  });
});
