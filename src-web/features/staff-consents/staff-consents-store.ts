import { makeAutoObservable, runInAction } from 'mobx';
import type { StaffConsents } from '@contract/api/staff-consents';
import { ApiError } from '../../api/client';
import { createStaffConsentsApi, type StaffConsentsApi } from './staff-consents-api';
import { staffLoadProblemOf, type StaffLoadProblem } from '../../api/staff-load-problem';
import type { LoadState } from '../../platform/load-state';
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
  loadState: LoadState = 'idle';
  /** No staff session, another role, no booking with this key (or a malformed one), or a failure. */
  problem: StaffLoadProblem | 'notFound' | null = null;
  /** Form id → its drawn signature. */
  images = new Map<string, SignatureImage>();
  private generation = 0;

  constructor(private readonly api: StaffConsentsApi) {
    makeAutoObservable<this, 'api' | 'generation'>(this, { api: false, generation: false });
  }

  async load(bookingKey = this.bookingKey): Promise<void> {
    const generation = ++this.generation;
    this.images.clear();
    this.bookingKey = bookingKey;
    this.loadState = 'loading';
    this.problem = null;
    try {
      const data = await this.api.list(bookingKey);
      if (generation !== this.generation) return;
      runInAction(() => {
        this.data = data;
        this.loadState = 'loaded';
        for (const form of data.consents) if (form.drawn) this.images.set(form.id, { state: 'loading' });
      });
      await Promise.all(data.consents.filter((form) => form.drawn).map((form) => this.loadImage(generation, form.id)));
    } catch (error) {
      if (generation !== this.generation) return;
      runInAction(() => {
        this.data = null;
        this.loadState = 'error';
        const status = error instanceof ApiError && error.kind === 'http' ? error.status : 0;
        this.problem = status === 404 || status === 400 ? 'notFound' : staffLoadProblemOf(error);
      });
    }
  }

  private async loadImage(generation: number, formId: string): Promise<void> {
    try {
      const blob = await this.api.signature(this.bookingKey, formId);
      if (generation !== this.generation) return;
      // A data: URL, not an object URL: the portal's CSP allows img-src 'self' data: only.
      const url = await dataUrlOf(blob);
      runInAction(() => this.images.set(formId, { state: 'ready', url }));
    } catch {
      if (generation !== this.generation) return;
      runInAction(() => this.images.set(formId, { state: 'failed' }));
    }
  }

  /** The page leaves: answers still on their way are dropped, the images forgotten. */
  dispose(): void {
    this.generation += 1;
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
  return new StaffConsentsStore(createStaffConsentsApi(client));
}
