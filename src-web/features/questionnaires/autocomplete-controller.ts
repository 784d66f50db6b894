import { makeAutoObservable, runInAction } from 'mobx';
import { LatestRun } from '../../platform/load-state';

/** Lookups start at 3 characters, 400 ms after the last keystroke (docs/rules/questionnaires.md#autocomplete). */
export const AUTOCOMPLETE_MIN_CHARS = 3;
export const AUTOCOMPLETE_DEBOUNCE_MS = 400;

/** Suggestions for what the patient typed (source: the question's lookup name, e.g. 'doctors'). */
export type AutocompleteLookup = (query: string, source?: string) => Promise<string[]>;

export interface AutocompleteTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const browserTimers: AutocompleteTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The autocomplete survey field's rules, apart from SurveyJS so they are tested on their own:
 * typing shows the text at once; a lookup runs 400 ms after the last keystroke once there are
 * 3 or more characters; leaving the field keeps the value only when it is one of the
 * suggestions, otherwise it is cleared.
 */
export class AutocompleteController {
  text = '';
  suggestions: string[] = [];
  open = false;
  loading = false;
  /** The highlighted suggestion (keyboard), -1 for none. */
  active = -1;

  private timer: unknown = null;
  private readonly runs = new LatestRun();
  /** The value last chosen (or given at the start): leaving the field unchanged keeps it. */
  private committed: string;

  constructor(
    private readonly lookup: AutocompleteLookup,
    /** Called with the committed value ('' when cleared). */
    private readonly commit: (value: string) => void,
    initial = '',
    private readonly source?: string,
    private readonly timers: AutocompleteTimers = browserTimers,
  ) {
    this.text = initial;
    this.committed = initial;
    makeAutoObservable<this, 'timer' | 'runs' | 'lookup' | 'commit' | 'timers' | 'source' | 'committed'>(this, {
      committed: false,
      timer: false,
      runs: false,
      lookup: false,
      commit: false,
      timers: false,
      source: false,
    });
  }

  input(text: string): void {
    this.text = text;
    this.active = -1;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    const query = text.trim();
    if (query.length < AUTOCOMPLETE_MIN_CHARS) {
      this.runs.cancel();
      this.suggestions = [];
      this.open = false;
      this.loading = false;
      return;
    }
    this.timer = this.timers.setTimeout(() => void this.search(query), AUTOCOMPLETE_DEBOUNCE_MS);
  }

  private async search(query: string): Promise<void> {
    this.timer = null;
    const isCurrent = this.runs.start();
    this.loading = true;
    try {
      const found = await this.lookup(query, this.source);
      runInAction(() => {
        if (!isCurrent()) return;
        this.suggestions = found;
        this.open = found.length > 0;
        this.loading = false;
      });
    } catch {
      runInAction(() => {
        if (!isCurrent()) return;
        this.suggestions = [];
        this.open = false;
        this.loading = false;
      });
    }
  }

  choose(value: string): void {
    this.text = value;
    this.committed = value;
    this.open = false;
    this.active = -1;
    this.commit(value);
  }

  move(step: 1 | -1): void {
    if (this.suggestions.length === 0) return;
    this.open = true;
    const count = this.suggestions.length;
    this.active = this.active === -1 ? (step === 1 ? 0 : count - 1) : (this.active + step + count) % count;
  }

  /** Enter: takes the highlighted suggestion. True when one was taken. */
  enter(): boolean {
    const value = this.suggestions[this.active];
    if (!this.open || value === undefined) return false;
    this.choose(value);
    return true;
  }

  dismiss(): void {
    this.open = false;
    this.active = -1;
  }

  /** Leaving the field: a value that is not one of the suggestions is cleared. */
  blur(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.runs.cancel();
    this.open = false;
    this.loading = false;
    this.active = -1;
    if (this.text !== '' && this.text === this.committed) return;
    if (this.suggestions.includes(this.text)) {
      this.choose(this.text);
      return;
    }
    this.text = '';
    this.committed = '';
    this.commit('');
  }

  dispose(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.runs.cancel();
  }
}
