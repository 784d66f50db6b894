import type { i18n as I18nInstance } from 'i18next';
import type { SupportedLocale } from '@contract/api/config';
import { lazyTexts } from './lazy-texts';

/**
 * The texts of the small pages (about, contact, terms, privacy, deny, not found, not available,
 * select region, iframe test): pages.json, loaded with a page's code (routes.tsx) rather than
 * riding in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('./locales/en/pages.json'), {
  mk: () => import('./locales/mk/pages.json'),
});

interface Target {
  instance: I18nInstance;
  locale: SupportedLocale;
}

// A page's code may start loading before the language is ready (the router starts at once):
// its texts wait for the instance.
let settle: ((target: Target) => void) | null = null;
let bound = new Promise<Target>((resolve) => (settle = resolve));

/** A new language is being set up (I18nStore's constructor): pages loading from now on wait for it. */
export function expectPageTexts(): void {
  if (settle !== null) return;
  bound = new Promise<Target>((resolve) => (settle = resolve));
}

/** Names the i18next instance and language the pages' texts go into (I18nStore.init). */
export function bindPageTexts(instance: I18nInstance, locale: SupportedLocale): void {
  const target = { instance, locale };
  if (settle === null) bound = Promise.resolve(target);
  else settle(target);
  settle = null;
}

/** Loads the pages' texts into the instance the app uses (once per instance). */
export async function loadPageTexts(): Promise<void> {
  const { instance, locale } = await bound;
  await texts.load(instance, locale);
}
