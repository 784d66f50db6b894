import { describe, expect, it } from 'vitest';
import {
  AUTOCOMPLETE_DEBOUNCE_MS,
  AutocompleteController,
  type AutocompleteTimers,
} from '../../../../src-web/features/questionnaires/autocomplete-controller';

/** Timers the test runs by hand: each pending callback with its delay. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 1;
  const timers: AutocompleteTimers & { run(): number[]; count: () => number } = {
    setTimeout: (callback, ms) => {
      const id = next++;
      pending.set(id, { callback, ms });
      return id;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
    run: () => {
      const delays = [...pending.values()].map((entry) => entry.ms);
      const callbacks = [...pending.values()].map((entry) => entry.callback);
      pending.clear();
      callbacks.forEach((callback) => callback());
      return delays;
    },
    count: () => pending.size,
  };
  return timers;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(initial = '') {
  const queries: { query: string; source?: string }[] = [];
  const committed: string[] = [];
  const timers = manualTimers();
  const controller = new AutocompleteController(
    async (query, source) => {
      queries.push({ query, source });
      return ['Pacemaker', 'Pacemaker leads', 'Cochlear implant'].filter((name) => name.toLowerCase().includes(query.toLowerCase()));
    },
    (value) => committed.push(value),
    initial,
    'implants',
    timers,
  );
  /** Types the text and lets its lookup run and answer. */
  const typeAndLookUp = async (text: string) => {
    controller.input(text);
    timers.run();
    await flush();
  };
  return { controller, queries, committed, timers, typeAndLookUp };
}

describe('the autocomplete survey field', () => {
  it('should not look anything up below 3 characters', () => {
    const { controller, timers } = setup();
    controller.input('p');
    controller.input('pa');
    expect(timers.count()).toBe(0);
    expect(controller.open).toBe(false);
  });

  it('should look up once, 400 ms after the last keystroke, from 3 characters', async () => {
    const { controller, queries, timers } = setup();
    controller.input('pac');
    controller.input('pace');
    // Only the last keystroke's lookup is still waiting.
    expect(timers.count()).toBe(1);
    expect(timers.run()).toEqual([AUTOCOMPLETE_DEBOUNCE_MS]);
    await flush();
    expect(queries).toEqual([{ query: 'pace', source: 'implants' }]);
    expect(controller.suggestions).toEqual(['Pacemaker', 'Pacemaker leads']);
    expect(controller.open).toBe(true);
  });

  it('should clear a value that is not among the suggestions when the field is left', async () => {
    const { controller, committed, typeAndLookUp } = setup();
    await typeAndLookUp('pace');
    controller.input('pacemakerX');
    controller.blur();
    expect(controller.text).toBe('');
    expect(committed).toEqual(['']);
  });

  it('should keep a suggestion chosen with the keyboard, also when the field is left later', async () => {
    const { controller, committed, typeAndLookUp } = setup();
    await typeAndLookUp('pace');
    controller.move(1);
    controller.move(1);
    expect(controller.enter()).toBe(true);
    expect(controller.text).toBe('Pacemaker leads');
    controller.blur();
    expect(controller.text).toBe('Pacemaker leads');
    expect(committed).toEqual(['Pacemaker leads']);
  });

  it('should keep a typed value that matches a suggestion exactly, and an earlier answer left unchanged', async () => {
    const { controller, committed, typeAndLookUp } = setup();
    await typeAndLookUp('Pacemaker');
    controller.blur();
    expect(committed).toEqual(['Pacemaker']);

    const earlier = setup('Cochlear implant');
    earlier.controller.blur();
    expect(earlier.controller.text).toBe('Cochlear implant');
    expect(earlier.committed).toEqual([]);
  });
});
