import { useEffect, useRef } from 'react';
import { createWedgeReader } from './wedge-reader';

/** A field the patient types in: a scanner's keys there belong to the field, not to us. */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return target.matches('input, textarea, select, [contenteditable=""], [contenteditable="true"]');
}

/**
 * Listens for a keyboard-wedge scan anywhere on the page (wedge-reader.ts) while `enabled`, and
 * hands the scanned text to `onScan`. Keys typed into a text field are left alone. The Enter that
 * ends a scan is swallowed, so it does not also press the button that has the focus.
 * @param now - the clock in milliseconds (tests pass their own).
 */
export function useKeyboardWedge(onScan: (text: string) => void, enabled = true, now: () => number = () => performance.now()): void {
  const latest = useRef({ onScan, now });
  useEffect(() => {
    latest.current = { onScan, now };
  });

  useEffect(() => {
    if (!enabled) return;
    const reader = createWedgeReader();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.repeat || event.ctrlKey || event.metaKey || event.altKey || isTextField(event.target)) {
        reader.reset();
        return;
      }
      const scanned = reader.key(event.key, latest.current.now());
      if (scanned === null) return;
      event.preventDefault();
      event.stopPropagation();
      latest.current.onScan(scanned);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [enabled]);
}
