import { makeAutoObservable, runInAction } from 'mobx';
import type { StaffConsents } from '@contract/api/staff-consents';
import { ApiError } from '../../api/client';
import { createStaffConsentsApi, type StaffConsentsApi } from '../../api/staff-consents-api';
import { staffLoadProblemOf, type StaffLoadProblem } from '../../api/staff-load-problem';
import type { LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';

/** A drawn signature as the page shows it: an object URL of the PNG, or why it is missing. */
export type SignatureImage = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'failed' };

/**
 * /staff/appointments/:bookingKey/consents: the booking's consent forms with who signed and when,
 * and each drawn signature, fetched on the staff session (docs/rules/self-service.md#consent-forms).
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

  constructor(
    private readonly api: StaffConsentsApi,
    private readonly objectUrls: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'> = URL,
  ) {
    makeAutoObservable<this, 'api' | 'objectUrls' | 'generation'>(this, { api: false, objectUrls: false, generation: false });
  }

  async load(bookingKey = this.bookingKey): Promise<void> {
    const generation = ++this.generation;
    this.releaseImages();
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
      const url = this.objectUrls.createObjectURL(blob);
      runInAction(() => this.images.set(formId, { state: 'ready', url }));
    } catch {
      if (generation !== this.generation) return;
      runInAction(() => this.images.set(formId, { state: 'failed' }));
    }
  }

  private releaseImages(): void {
    for (const image of this.images.values()) if (image.state === 'ready') this.objectUrls.revokeObjectURL(image.url);
    this.images.clear();
  }

  /** The page leaves: answers still on their way are dropped, the images' object URLs freed. */
  dispose(): void {
    this.generation += 1;
    this.releaseImages();
  }
}

export function staffConsentsStoreOf({ client, window }: FeatureStoreContext): StaffConsentsStore {
  return new StaffConsentsStore(createStaffConsentsApi(client), (window as Window & typeof globalThis).URL);
}
