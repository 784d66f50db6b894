/**
 * A USB barcode scanner that "types like a keyboard" (a keyboard wedge): a burst of printable
 * keys, each within WEDGE_MAX_GAP_MS of the one before, ended by Enter. People do not type that
 * fast, so a burst is a scan; anything slower is ignored.
 */

/** A scanner types a character every few milliseconds; a fast typist needs about 100 ms. */
export const WEDGE_MAX_GAP_MS = 50;
/** Shorter bursts are not a code (our payload is well over this). */
export const WEDGE_MIN_LENGTH = 8;
/** Nothing we scan is longer; a stuck key must not grow the buffer for ever. */
export const WEDGE_MAX_LENGTH = 512;

export interface WedgeReader {
  /**
   * One key press (KeyboardEvent.key) at `at` milliseconds. Returns the scanned text when this
   * Enter ends a burst, else null.
   */
  key(key: string, at: number): string | null;
  /** Forgets a burst under way (typing went into a text field, the page changed). */
  reset(): void;
}

export function createWedgeReader(maxGapMs = WEDGE_MAX_GAP_MS, minLength = WEDGE_MIN_LENGTH): WedgeReader {
  let buffer = '';
  let lastAt = Number.NEGATIVE_INFINITY;
  const reset = () => {
    buffer = '';
    lastAt = Number.NEGATIVE_INFINITY;
  };
  return {
    key(key, at) {
      const fast = at - lastAt <= maxGapMs;
      if (key === 'Enter') {
        const scanned = fast && buffer.length >= minLength ? buffer : null;
        reset();
        return scanned;
      }
      // Shift and friends come with every capital letter a scanner types: they neither add nor break a burst.
      if (key === 'Shift' || key === 'CapsLock' || key === 'AltGraph') return null;
      if (key.length !== 1) {
        reset();
        return null;
      }
      buffer = fast && buffer.length < WEDGE_MAX_LENGTH ? buffer + key : key;
      lastAt = at;
      return null;
    },
    reset,
  };
}
