import { useEffect, useState } from 'react';
import type { i18n as I18nInstance, ResourceKey } from 'i18next';
import type { SupportedLocale } from '@contract/api/config';

/**
 * The texts of the self-service pages (appointment, booking request, the reschedule step) live in
 * their own catalogue, self-service.json beside each translation.json, and load with those pages:
 * English is otherwise bundled into the entry chunk, and these pages' texts are more than the
 * booking home's JavaScript budget allows (issue 4). Locales without their own file use English.
 */
const OWN: Partial<Record<SupportedLocale, () => Promise<{ default: ResourceKey }>>> = {
  mk: () => import('./locales/mk/self-service.json'),
};

const loading = new WeakMap<I18nInstance, Promise<void>>();
const loaded = new WeakSet<I18nInstance>();

/**
 * Adds the self-service texts to the instance (once). They go in below what is there: the
 * server's overlay and the role translations, added earlier, keep winning key by key.
 */
export function loadSelfServiceTexts(instance: I18nInstance, locale: SupportedLocale): Promise<void> {
  let promise = loading.get(instance);
  if (!promise) {
    promise = Promise.all([import('./locales/en/self-service.json'), OWN[locale]?.()]).then(([english, own]) => {
      instance.addResourceBundle('en', 'translation', english.default, true, false);
      if (own) instance.addResourceBundle(locale, 'translation', own.default, true, false);
      loaded.add(instance);
    });
    // A failed download may be tried again on the next page open.
    promise.catch(() => loading.delete(instance));
    loading.set(instance, promise);
  }
  return promise;
}

/** True once the self-service texts are in the instance; starts loading them when needed. */
export function useSelfServiceTexts(instance: I18nInstance, locale: SupportedLocale): boolean {
  const [ready, setReady] = useState(() => loaded.has(instance));
  useEffect(() => {
    if (ready) return;
    let live = true;
    loadSelfServiceTexts(instance, locale).then(
      () => live && setReady(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [instance, locale, ready]);
  return ready;
}
