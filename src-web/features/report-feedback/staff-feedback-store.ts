import { makeAutoObservable, runInAction } from 'mobx';
import type { FeedbackListResponse } from '@contract/api/referrer-feedback';
import { createReferrerFeedbackApi, type ReferrerFeedbackApi } from '../../api/referrer-feedback-api';
import { staffLoadProblemOf, type StaffLoadProblem } from '../../api/staff-load-problem';
import type { LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';

/** Why the staff list shows nothing: no staff session (401), a session without staff or admin (403), or a failure. */
export type StaffFeedbackProblem = StaffLoadProblem;

export const STAFF_FEEDBACK_PAGE_SIZE = 20;

/** /staff/referrer-feedback: staff read referrers' feedback a page at a time, with the summaries. */
export class StaffFeedbackStore {
  data: FeedbackListResponse | null = null;
  loadState: LoadState = 'idle';
  problem: StaffFeedbackProblem | null = null;
  page = 1;
  private generation = 0;

  constructor(private readonly api: ReferrerFeedbackApi) {
    makeAutoObservable<this, 'api' | 'generation'>(this, { api: false, generation: false });
  }

  async load(page = this.page): Promise<void> {
    const generation = ++this.generation;
    this.page = page;
    this.loadState = 'loading';
    this.problem = null;
    try {
      const data = await this.api.list(page, STAFF_FEEDBACK_PAGE_SIZE);
      runInAction(() => {
        if (generation !== this.generation) return;
        this.data = data;
        this.loadState = 'loaded';
      });
    } catch (error) {
      runInAction(() => {
        if (generation !== this.generation) return;
        this.loadState = 'error';
        this.problem = staffLoadProblemOf(error);
      });
    }
  }

  get pages(): number {
    return this.data === null ? 1 : Math.max(1, Math.ceil(this.data.total / this.data.pageSize));
  }

  dispose(): void {
    this.generation += 1;
  }
}

export function staffFeedbackStoreOf({ client }: FeatureStoreContext): StaffFeedbackStore {
  return new StaffFeedbackStore(createReferrerFeedbackApi(client));
}
