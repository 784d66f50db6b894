import { makeObservable, observable, runInAction } from 'mobx';

/** Where a store's request for one piece of data stands; pages show a spinner, the data or the load error from it. */
export type LoadState = 'idle' | 'loading' | 'loaded' | 'error';

export interface LoadHandlers<T> {
  /** Takes the answer into the store (inside one action, with the state becoming 'loaded'). */
  loaded(value: T): void;
  /** The state to show once the answer is in, when not 'loaded' (an answer that sends the user elsewhere stays 'loading'). */
  stateAfter?(value: T): LoadState;
  /** Reads the failure into the store; answers the state to show, 'error' when it answers nothing. */
  failed?(error: unknown): LoadState | void;
}

/**
 * A store's runs (a load, a questionnaire run, a wait for images), newest wins: an answer whose run
 * a newer start() or cancel() has superseded is dropped, so a slow old answer never overwrites a
 * newer one nor reaches a page that has closed.
 */
export class LatestRun {
  private generation = 0;

  /** Starts a run, superseding the one before; answers whether it is still the latest. */
  start(): () => boolean {
    this.generation += 1;
    return this.current();
  }

  /** Whether the run going now is still the latest, asked after an await (its follow-up requests). */
  current(): () => boolean {
    const generation = this.generation;
    return () => generation === this.generation;
  }

  /** Whatever is in flight is dropped (the page closed, the run was stopped). */
  cancel(): void {
    this.generation += 1;
  }
}

/**
 * How every store loads its data (docs/web.md#stores): `state` follows the load started last, and
 * an answer that a newer load or dispose() has superseded is dropped (LatestRun).
 */
export class Loader {
  state: LoadState = 'idle';
  private readonly runs = new LatestRun();

  constructor() {
    makeObservable(this, { state: observable });
  }

  /** Loads with `fetch`; true when its answer was taken into the store. */
  async run<T>(fetch: () => Promise<T>, handlers: LoadHandlers<T>): Promise<boolean> {
    const isCurrent = this.runs.start();
    runInAction(() => (this.state = 'loading'));
    try {
      const value = await fetch();
      if (!isCurrent()) return false;
      runInAction(() => {
        handlers.loaded(value);
        this.state = handlers.stateAfter?.(value) ?? 'loaded';
      });
      return true;
    } catch (error) {
      if (!isCurrent()) return false;
      runInAction(() => (this.state = handlers.failed?.(error) ?? 'error'));
      return false;
    }
  }

  /** Sets the state by hand (a failed follow-up call that loses the page, an input refused before any call). */
  set(state: LoadState): void {
    runInAction(() => (this.state = state));
  }

  /** Follow-up requests of the load started last (more rows, images) check this before they apply their answers. */
  current(): () => boolean {
    return this.runs.current();
  }

  /** The page closed: whatever is in flight is dropped. */
  dispose(): void {
    this.runs.cancel();
  }
}
