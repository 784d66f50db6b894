import { makeAutoObservable, runInAction } from 'mobx';
import type { StaffConsents } from '@contract/api/staff-consents';
import { ApiError } from '../../api/client';
import { createStaffConsentsApi, type StaffConsentsApi } from './staff-consents-api';
import { staffLoadProblemOf, type StaffLoadProblem } from '../../api/staff-load-problem';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';

/** A drawn signature as the page shows it: the PNG as a data: URL, or why it is missing. */
export type SignatureImage = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'failed' };

/**
 * /staff/appointments/:bookingKey/consents: the booking's consent forms with who signed and when,
 * and each drawn signature, fetched on the staff session (docs/rules/appointments.md#consent-forms).
 */
export class StaffConsentsStore {
  bookingKey = '';
  data: StaffConsents | null = null;
  readonly loader = new Loader();
  /** No staff session, another role, no booking with this key (or a malformed one), or a failure. */
  problem: StaffLoadProblem | 'notFound' | null = null;
  /** Form id → its drawn signature. */
  images = new Map<string, SignatureImage>();

  private readonly api: StaffConsentsApi;

  constructor(deps: { api: StaffConsentsApi }) {
    this.api = deps.api;
    makeAutoObservable<this, 'api'>(this, { api: false, loader: false });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  async load(bookingKey = this.bookingKey): Promise<void> {
    this.images.clear();
    this.bookingKey = bookingKey;
    this.problem = null;
    let drawn: string[] = [];
    // Captured as the list is taken in: a newer load from then on drops these images' answers.
    let isCurrent = () => false;
    const loaded = await this.loader.run(() => this.api.list(bookingKey), {
      loaded: (data) => {
        this.data = data;
        drawn = data.consents.filter((form) => form.drawn).map((form) => form.id);
        for (const formId of drawn) this.images.set(formId, { state: 'loading' });
        isCurrent = this.loader.current();
      },
      failed: (error) => {
        this.data = null;
        const status = error instanceof ApiError && error.kind === 'http' ? error.status : 0;
        this.problem = status === 404 || status === 400 ? 'notFound' : staffLoadProblemOf(error);
      },
    });
    if (!loaded) return;
    await Promise.all(drawn.map((formId) => this.loadImage(isCurrent, formId)));
  }

  private async loadImage(isCurrent: () => boolean, formId: string): Promise<void> {
    try {
      const blob = await this.api.signature(this.bookingKey, formId);
      if (!isCurrent()) return;
      // A data: URL, not an object URL: the portal's CSP allows img-src 'self' data: only.
      const url = await dataUrlOf(blob);
      runInAction(() => this.images.set(formId, { state: 'ready', url }));
    } catch {
      if (!isCurrent()) return;
      runInAction(() => this.images.set(formId, { state: 'failed' }));
    }
  }

  /** The page leaves: answers still on their way are dropped, the images forgotten. */
  dispose(): void {
    this.loader.dispose();
    this.images.clear();
  }
}

function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable signature')));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable signature'));
    reader.readAsDataURL(blob);
  });
}

export function staffConsentsStoreOf({ client }: FeatureStoreContext): StaffConsentsStore {
  return new StaffConsentsStore({ api: createStaffConsentsApi(client) });
}
