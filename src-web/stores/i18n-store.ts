import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { i18n as I18nInstance } from 'i18next';
import type { SupportedLocale, TranslationOverlay } from '@contract/api/config';
import type { AssetsApi } from '../api/assets-api';
import { createI18n, preloadCatalogue } from '../i18n/create-i18n';
import { resolveLocale, weekStartsOn, type WeekStart } from '../i18n/locale';
import { bindPageTexts, expectPageTexts } from '../i18n/page-texts';

/** The active language: i18next instance and the week start (docs/rules/shell.md#languages). */
export class I18nStore {
  locale: SupportedLocale;
  instance: I18nInstance | null = null;

  private readonly assets: AssetsApi;
  private readonly doc: Document;

  constructor(requestedLocale: string, assets: AssetsApi, doc: Document) {
    this.locale = resolveLocale(requestedLocale);
    this.assets = assets;
    this.doc = doc;
    // Pages whose code starts loading before init() finishes put their texts into this language.
    expectPageTexts();
    makeAutoObservable<this, 'assets' | 'doc'>(this, {
      instance: observableRef,
      assets: false,
      doc: false,
    });
  }

  get weekStart(): WeekStart {
    return weekStartsOn(this.locale);
  }

  /** The instance for I18nextProvider; init() must have finished. */
  get i18n(): I18nInstance {
    if (!this.instance) throw new Error('I18nStore#init has not finished');
    return this.instance;
  }

  /**
   * Loads the catalogue and the server overlay (antd's texts and dates load with the first antd
   * component, components/antd-scope.tsx). A failing overlay only
   * warns: the hand-written catalogues are complete, so the portal still reads well.
   *
   * @param withOverlay - false when the API is known to be unreachable (bootstrap failure).
   */
  async init(withOverlay = true): Promise<void> {
    const locale = this.locale;
    // The catalogue chunk downloads while the overlay request is out, so the first render
    // waits for one round trip, not two (Lighthouse on a slow phone network).
    preloadCatalogue(locale);
    const overlay = withOverlay ? await this.loadOverlay(locale) : {};
    const instance = await createI18n(locale, overlay);
    runInAction(() => {
      this.instance = instance;
    });
    bindPageTexts(instance, locale);
    this.doc.documentElement.lang = locale;
  }

  /**
   * Switches the language for this page (the kiosk's language buttons): a new instance with that
   * catalogue and the server's overlay. Texts loaded with pages load again for it (lazy-texts.ts).
   */
  async setLocale(locale: SupportedLocale): Promise<void> {
    if (locale === this.locale && this.instance !== null) return;
    preloadCatalogue(locale);
    const instance = await createI18n(locale, await this.loadOverlay(locale));
    runInAction(() => {
      this.locale = locale;
      this.instance = instance;
    });
    bindPageTexts(instance, locale);
    this.doc.documentElement.lang = locale;
  }

  private async loadOverlay(locale: SupportedLocale): Promise<TranslationOverlay> {
    try {
      return await this.assets.translations(locale);
    } catch (error) {
      console.warn('[i18n] server translations unavailable, using the built-in catalogues', error);
      return {};
    }
  }
}
