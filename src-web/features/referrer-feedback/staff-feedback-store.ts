import { makeAutoObservable, runInAction } from 'mobx';
import type { FeedbackFilterInput, FeedbackListResponse, FeedbackSort } from '@contract/api/referrer-feedback';
import { ApiError } from '../../api/client';
import { staffLoadProblemOf, type StaffLoadProblem } from '../../api/staff-load-problem';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';
import { createStaffFeedbackApi, type StaffFeedbackApi } from './staff-feedback-api';

/** Why the staff list shows nothing: no staff session (401), a session without staff or admin (403), or a failure. */
export type StaffFeedbackProblem = StaffLoadProblem;

export const STAFF_FEEDBACK_PAGE_SIZE = 20;

/** What the table shows: the server filters, sorts and pages (docs/rules/referrers.md#report-quality-feedback). */
export interface FeedbackView {
  referrer: string | null;
  modality: string | null;
  /** Calendar days, YYYY-MM-DD, both included. */
  from: string | null;
  to: string | null;
  sort: FeedbackSort;
  order: 'asc' | 'desc';
}

export const DEFAULT_VIEW: FeedbackView = { referrer: null, modality: null, from: null, to: null, sort: 'date', order: 'desc' };

export type ExportState =
  { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; rows: number } | { kind: 'refused'; message: string } | { kind: 'failed' };

/** This browser's zone: the days of the date range are the staff member's days. */
const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Saves a downloaded file through a temporary link (the browser's own download). */
function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; free it once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** /staff/referrer-feedback: staff read referrers' feedback as a table of the filter, with summaries, and export it. */
export class StaffFeedbackStore {
  data: FeedbackListResponse | null = null;
  readonly loader = new Loader();
  problem: StaffFeedbackProblem | null = null;
  /** The server's words for a filter it refused (400). */
  filterProblem: string | null = null;
  view: FeedbackView = DEFAULT_VIEW;
  page = 1;
  exportState: ExportState = { kind: 'idle' };

  private readonly api: StaffFeedbackApi;
  private readonly timeZone: string;

  constructor(deps: { api: StaffFeedbackApi; timeZone?: string }) {
    this.api = deps.api;
    this.timeZone = deps.timeZone ?? browserTimeZone();
    makeAutoObservable<this, 'api' | 'timeZone'>(this, { api: false, loader: false, timeZone: false });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** The filter as the server reads it. */
  get filter(): FeedbackFilterInput {
    const { referrer, modality, from, to, sort, order } = this.view;
    return {
      ...(referrer === null ? {} : { referrer }),
      ...(modality === null ? {} : { modality }),
      ...(from === null ? {} : { from }),
      ...(to === null ? {} : { to }),
      timeZone: this.timeZone,
      sort,
      order,
    };
  }

  get filtered(): boolean {
    const { referrer, modality, from, to } = this.view;
    return referrer !== null || modality !== null || from !== null || to !== null;
  }

  /** A new filter or order starts at the first page. */
  setView(change: Partial<FeedbackView>): void {
    this.view = { ...this.view, ...change };
    this.exportState = { kind: 'idle' };
    void this.load(1);
  }

  clearFilters(): void {
    this.setView({ referrer: null, modality: null, from: null, to: null });
  }

  /** Loaded at least once: the table may show (components/staff-table-page.tsx). */
  get loaded(): boolean {
    return this.data !== null;
  }

  async load(page = this.page): Promise<void> {
    this.page = page;
    this.problem = null;
    this.filterProblem = null;
    await this.loader.run(() => this.api.list({ ...this.filter, page, pageSize: STAFF_FEEDBACK_PAGE_SIZE }), {
      loaded: (data) => (this.data = data),
      failed: (error) => {
        if (error instanceof ApiError && error.kind === 'http' && error.status === 400) {
          // The table stays as it was, with the server's reason beside the filters.
          this.filterProblem = error.message;
          if (this.data !== null) return 'loaded';
          this.problem = 'unavailable';
          return 'error';
        }
        this.problem = staffLoadProblemOf(error);
        return 'error';
      },
    });
  }

  /** Downloads the CSV of the current filter and order (every page). */
  async exportCsv(): Promise<void> {
    if (this.exportState.kind === 'busy') return;
    this.exportState = { kind: 'busy' };
    try {
      const { blob, fileName, rows } = await this.api.exportCsv(this.filter);
      saveFile(blob, fileName);
      runInAction(() => (this.exportState = { kind: 'done', rows }));
    } catch (error) {
      runInAction(() => {
        this.exportState =
          error instanceof ApiError && error.kind === 'http' && error.status === 400
            ? { kind: 'refused', message: error.message }
            : { kind: 'failed' };
        if (error instanceof ApiError && error.kind === 'http' && (error.status === 401 || error.status === 403)) {
          this.problem = staffLoadProblemOf(error);
          this.loader.set('error');
        }
      });
    }
  }

  get pages(): number {
    return this.data === null ? 1 : Math.max(1, Math.ceil(this.data.total / this.data.pageSize));
  }

  dispose(): void {
    this.loader.dispose();
  }
}

export function staffFeedbackStoreOf({ client }: FeatureStoreContext): StaffFeedbackStore {
  return new StaffFeedbackStore({ api: createStaffFeedbackApi(client) });
}
