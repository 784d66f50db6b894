import { makeAutoObservable, runInAction } from 'mobx';
import type { ContactClinic } from '@contract/api/config';
import type { ConfigApi } from '../api/config-api';
import type { LoadState } from '../platform/load-state';

/** Content of the static pages that comes from the server: clinics (Contact) and the terms. */
export class ContentStore {
  clinics: ContactClinic[] = [];
  clinicsState: LoadState = 'idle';
  termsHtml = '';
  termsState: LoadState = 'idle';

  private readonly api: ConfigApi;

  constructor(api: ConfigApi) {
    this.api = api;
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  async loadClinics(): Promise<void> {
    if (this.clinicsState === 'loading' || this.clinicsState === 'loaded') return;
    this.clinicsState = 'loading';
    try {
      const response = await this.api.contact();
      runInAction(() => {
        this.clinics = response.clinics;
        this.clinicsState = 'loaded';
      });
    } catch (error) {
      console.warn('[content] clinics could not be loaded', error);
      runInAction(() => {
        this.clinicsState = 'error';
      });
    }
  }

  async loadTerms(): Promise<void> {
    if (this.termsState === 'loading' || this.termsState === 'loaded') return;
    this.termsState = 'loading';
    try {
      const html = await this.api.terms();
      runInAction(() => {
        this.termsHtml = html;
        this.termsState = 'loaded';
      });
    } catch (error) {
      console.warn('[content] terms could not be loaded', error);
      runInAction(() => {
        this.termsState = 'error';
      });
    }
  }
}
