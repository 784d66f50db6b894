import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { Glossary } from '@contract/api/results-glossary';
import { createResultsApi } from '../../api/results-api';
import type { FeatureStoreContext } from '../../stores/root-store';
import { createTermMatcher, type TermMatcher } from './glossary-match';

/**
 * The provider's glossary, asked for once per visit and only by a page that shows a report
 * (never by the booking home). Without it the report still reads, only without explanations.
 */
export class GlossaryStore {
  matcher: TermMatcher | null = null;
  private loading: Promise<void> | null = null;
  private readonly fetchGlossary: () => Promise<Glossary>;

  constructor(deps: { fetchGlossary: () => Promise<Glossary> }) {
    this.fetchGlossary = deps.fetchGlossary;
    makeAutoObservable<this, 'loading' | 'fetchGlossary'>(this, { matcher: observableRef, loading: false, fetchGlossary: false });
  }

  load(): Promise<void> {
    this.loading ??= this.fetchGlossary().then(
      (glossary) => {
        runInAction(() => {
          this.matcher = createTermMatcher(glossary.terms);
        });
      },
      // A failure leaves the report plain; the next page visit asks again.
      () => {
        this.loading = null;
      },
    );
    return this.loading ?? Promise.resolve();
  }
}

export function glossaryStoreOf({ client }: FeatureStoreContext): GlossaryStore {
  const api = createResultsApi(client);
  return new GlossaryStore({ fetchGlossary: () => api.glossary() });
}
