import { makeAutoObservable, runInAction } from 'mobx';
import {
  REFERRER_SEARCH_MAX_LENGTH,
  type ReferrerReportListItem,
  type ReferrerReportSort,
  type ReferrerReportsPage,
  type SortOrder,
} from '@contract/api/referrer-reports';
import { createReferrerReportsApi, type ReferrerReportsApi } from './referrer-reports-api';
import { staffLoadProblemOf } from '../../api/staff-load-problem';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';

/** Why the list cannot be shown. */
export type ReferrerAccessProblem =
  /** 401: no staff session; the page offers the staff sign-in. */
  | { kind: 'signInNeeded' }
  /** 403: signed in without the referrer role. */
  | { kind: 'roleNeeded' }
  /** No answer, or a 5xx: a generic text and Retry. */
  | { kind: 'unavailable' };

/** How long typing must pause before the list is asked again: one request per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The referrer's report list (docs/rules/referrers.md#referrer-report-list): the first page, the
 * search (debounced), and further pages. An answer to an earlier search never overwrites a later one.
 */
export class ReferrerAccessStore {
  reports: ReferrerReportListItem[] = [];
  nextCursor: string | null = null;
  reason: ReferrerReportsPage['reason'] = null;
  readonly loader = new Loader();
  problem: ReferrerAccessProblem | null = null;
  /** What the field shows. */
  search = '';
  /** The search the list answers (trimmed). */
  searched = '';
  loadingMore = false;
  moreFailed = false;
  /** A list came at least once this visit (the page then keeps the field through later loads). */
  hasLoaded = false;
  /** The table's sort (the server sorts: with pages, sorting only the rows shown would mislead). */
  sort: ReferrerReportSort = 'date';
  order: SortOrder = 'desc';

  private readonly api: ReferrerReportsApi;
  private readonly debounceMs: number;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(deps: { api: ReferrerReportsApi; debounceMs?: number }) {
    this.api = deps.api;
    this.debounceMs = deps.debounceMs ?? SEARCH_DEBOUNCE_MS;
    makeAutoObservable<this, 'api' | 'debounceMs' | 'timer'>(this, { api: false, debounceMs: false, loader: false, timer: false });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** How many of the reports shown the doctor has not opened yet. */
  get unreadCount(): number {
    return this.reports.filter((report) => report.unread).length;
  }

  /** The first page for the current search. */
  async load(): Promise<void> {
    this.clearTimer();
    const search = this.search.trim().slice(0, REFERRER_SEARCH_MAX_LENGTH);
    this.problem = null;
    this.moreFailed = false;
    await this.loader.run(() => this.api.list({ search, before: null, sort: this.sort, order: this.order }), {
      loaded: (page) => {
        this.reports = page.reports;
        this.nextCursor = page.nextCursor;
        this.reason = page.reason;
        this.searched = search;
        this.hasLoaded = true;
      },
      failed: (error) => {
        this.problem = problemOf(error);
      },
    });
  }

  /** Typing in the field: the list is asked again once typing pauses. */
  setSearch(text: string): void {
    this.search = text.slice(0, REFERRER_SEARCH_MAX_LENGTH);
    this.clearTimer();
    this.timer = setTimeout(() => void this.load(), this.debounceMs);
  }

  /** A column's sort chosen in the table (null: back to newest first); the first page is asked again. */
  setSort(sort: ReferrerReportSort | null, order: SortOrder | null): void {
    this.sort = sort ?? 'date';
    this.order = sort === null || order === null ? 'desc' : order;
    void this.load();
  }

  /** The next page, appended. */
  async loadMore(): Promise<void> {
    if (this.nextCursor === null || this.loadingMore) return;
    const isCurrent = this.loader.current();
    this.loadingMore = true;
    this.moreFailed = false;
    try {
      const page = await this.api.list({ search: this.searched, before: this.nextCursor, sort: this.sort, order: this.order });
      if (!isCurrent()) return;
      runInAction(() => {
        this.reports = [...this.reports, ...page.reports];
        this.nextCursor = page.nextCursor;
      });
    } catch (error) {
      if (!isCurrent()) return;
      runInAction(() => {
        const problem = problemOf(error);
        // A lost session concerns the whole page; anything else only this button.
        if (problem.kind === 'unavailable') this.moreFailed = true;
        else {
          this.problem = problem;
          this.loader.set('error');
        }
      });
    } finally {
      runInAction(() => (this.loadingMore = false));
    }
  }

  /** Leaving the page: a pending search is dropped and late answers are ignored. */
  dispose(): void {
    this.clearTimer();
    this.loader.dispose();
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

function problemOf(error: unknown): ReferrerAccessProblem {
  return { kind: staffLoadProblemOf(error) };
}

/** The page's store, built once per visit (RootStore.featureStore). */
export function referrerAccessStoreOf({ client }: FeatureStoreContext): ReferrerAccessStore {
  return new ReferrerAccessStore({ api: createReferrerReportsApi(client) });
}
