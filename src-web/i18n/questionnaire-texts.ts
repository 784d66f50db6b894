import { useEffect, useState } from 'react';
import type { i18n as I18nInstance, ResourceKey } from 'i18next';
import type { SupportedLocale } from '@contract/api/config';

/**
 * The texts of the questionnaires (the survey modal, the /questionnaires page, the booking
 * flow's questionnaire outcomes) live in their own catalogue, questionnaires.json beside each
 * translation.json, and load with the questionnaire code, like the self-service texts
 * (self-service-texts.ts): the booking home's entry chunk does not carry them. Locales without
 * their own file use English.
 */
const OWN: Partial<Record<SupportedLocale, () => Promise<{ default: ResourceKey }>>> = {
  mk: () => import('./locales/mk/questionnaires.json'),
};

const loading = new WeakMap<I18nInstance, Promise<void>>();
const loaded = new WeakSet<I18nInstance>();

/** Adds the questionnaire texts to the instance (once), below the server's overlay and role translations. */
export function loadQuestionnaireTexts(instance: I18nInstance, locale: SupportedLocale): Promise<void> {
  let promise = loading.get(instance);
  if (!promise) {
    promise = Promise.all([import('./locales/en/questionnaires.json'), OWN[locale]?.()]).then(([english, own]) => {
      instance.addResourceBundle('en', 'translation', english.default, true, false);
      if (own) instance.addResourceBundle(locale, 'translation', own.default, true, false);
      loaded.add(instance);
    });
    promise.catch(() => loading.delete(instance));
    loading.set(instance, promise);
  }
  return promise;
}

/** True once the questionnaire texts are in the instance; starts loading them when needed. */
export function useQuestionnaireTexts(instance: I18nInstance, locale: SupportedLocale): boolean {
  const [ready, setReady] = useState(() => loaded.has(instance));
  useEffect(() => {
    if (ready) return;
    let live = true;
    loadQuestionnaireTexts(instance, locale).then(
      () => live && setReady(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [instance, locale, ready]);
  return ready;
}
