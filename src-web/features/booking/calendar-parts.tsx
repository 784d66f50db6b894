import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';

/** The times are scrolled to 100 ms after a selection, once they have rendered. */
const SLOT_SCROLL_DELAY_MS = 100;

/** Brings a part into view only when it is not already in the upper part of the screen, so nothing jumps needlessly. */
function bringIntoView(element: HTMLElement | null): void {
  if (!element) return;
  const top = element.getBoundingClientRect().top;
  if (top >= 0 && top <= window.innerHeight * 0.6) return;
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  element.scrollIntoView({ block: 'start', behavior: reduceMotion ? 'auto' : 'smooth' });
}

/**
 * A ref whose element comes into view after `choice` changes (a clinic, a day): the next decision
 * follows the patient's choice instead of staying 1,000 px below it. With `onMount`, also when
 * the element first appears (the calendar appears because a clinic was chosen).
 */
export function useIntoViewAfterChoice<T extends HTMLElement>(choice: string | null, onMount = false) {
  const ref = useRef<T>(null);
  const previous = useRef<string | null | undefined>(onMount ? undefined : choice);
  useEffect(() => {
    const changed = choice !== previous.current;
    previous.current = choice;
    if (choice === null || !changed) return;
    const timer = window.setTimeout(() => bringIntoView(ref.current), SLOT_SCROLL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [choice]);
  return ref;
}

export interface CalendarStep {
  text: string;
  enabled: boolean;
  go: () => void;
}

/** Previous / range / next bar shared by the week and month views; the range is announced when it changes. */
export function CalendarNav({ label, previous, next }: { label: string; previous: CalendarStep; next: CalendarStep }) {
  return (
    <div className="pp-calendar-nav">
      <Button variant="secondary" disabled={!previous.enabled} onClick={previous.go}>
        {previous.text}
      </Button>
      <p aria-live="polite" className="pp-calendar-range">
        {label}
      </p>
      <Button variant="secondary" disabled={!next.enabled} onClick={next.go}>
        {next.text}
      </Button>
    </div>
  );
}

export function LoadStatus({ state }: { state: string }) {
  const { t } = useTranslation();
  if (state === 'loading') return <p role="status">{t('booking.calendar.loading')}</p>;
  if (state === 'error') return <p role="alert">{t('booking.calendar.loadError')}</p>;
  return null;
}

const ROVING_STEPS: Readonly<Record<string, number>> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * A toolbar of choices is one Tab stop; the arrow keys (and Home, End) move between its enabled
 * buttons (WAI-ARIA roving tabindex). Without it, reaching a time meant a Tab per day and per
 * time before it, and leaving it a Tab per time after it.
 */
export function moveAcrossToolbar(event: KeyboardEvent<HTMLElement>): void {
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
  const index = buttons.findIndex((button) => button === document.activeElement);
  if (index < 0 || buttons.length === 0) return;
  let next: number;
  if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = buttons.length - 1;
  else if (event.key in ROVING_STEPS) next = (index + (ROVING_STEPS[event.key] ?? 0) + buttons.length) % buttons.length;
  else return;
  event.preventDefault();
  const from = buttons[index];
  const to = buttons[next];
  if (!from || !to) return;
  from.tabIndex = -1;
  to.tabIndex = 0;
  to.focus();
}

/** The one button of a toolbar that Tab reaches: the chosen one, else the first that can be chosen. */
export function toolbarTabStop<T>(items: readonly T[], chosen: (item: T) => boolean, enabled: (item: T) => boolean): T | undefined {
  return items.find((item) => chosen(item) && enabled(item)) ?? items.find(enabled);
}
