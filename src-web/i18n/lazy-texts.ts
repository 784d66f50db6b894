import { useEffect, useState } from 'react';
import type { i18n as I18nInstance, ResourceKey } from 'i18next';
import type { SupportedLocale } from '@contract/api/config';

type Catalogue = () => Promise<{ default: ResourceKey }>;

/**
 * A catalogue of texts that loads with the code that needs it (a JSON file beside each
 * translation.json) instead of riding in the booking home's entry chunk. Locales without their
 * own file use English. The texts go in below what is there: the server's overlay and the role
 * translations, added earlier, keep winning key by key.
 */
export function lazyTexts(english: Catalogue, own: Partial<Record<SupportedLocale, Catalogue>>) {
  const loading = new WeakMap<I18nInstance, Promise<void>>();
  const loaded = new WeakSet<I18nInstance>();

  /** Adds the texts to the instance (once). */
  function load(instance: I18nInstance, locale: SupportedLocale): Promise<void> {
    let promise = loading.get(instance);
    if (!promise) {
      promise = Promise.all([english(), own[locale]?.()]).then(([en, local]) => {
        instance.addResourceBundle('en', 'translation', en.default, true, false);
        if (local) instance.addResourceBundle(locale, 'translation', local.default, true, false);
        loaded.add(instance);
      });
      // A failed download may be tried again on the next page open.
      promise.catch(() => loading.delete(instance));
      loading.set(instance, promise);
    }
    return promise;
  }

  /**
   * True once the texts are in the instance; starts loading them when needed.
   * @param wanted - false leaves them unloaded for now (a page whose later part needs them).
   */
  function useTexts(instance: I18nInstance, locale: SupportedLocale, wanted = true): boolean {
    // Ready per instance: a language switch brings a new instance that needs the texts again.
    const [readyFor, setReadyFor] = useState<I18nInstance | null>(() => (loaded.has(instance) ? instance : null));
    const ready = readyFor === instance || loaded.has(instance);
    useEffect(() => {
      if (ready || !wanted) return;
      let live = true;
      load(instance, locale).then(
        () => live && setReadyFor(instance),
        () => undefined,
      );
      return () => {
        live = false;
      };
    }, [instance, locale, ready, wanted]);
    return ready;
  }

  return { load, useTexts };
}
