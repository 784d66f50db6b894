import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createWedgeReader, WEDGE_MAX_GAP_MS } from '../../../../src-web/features/kiosk-scan/wedge-reader';
import { useKeyboardWedge } from '../../../../src-web/features/kiosk-scan/use-keyboard-wedge';
import { bookingKeyFromCode } from '@contract/booking-code';

// A USB scanner that types like a keyboard (src-web/features/kiosk-scan/): a fast burst ended by Enter.

const CODE = 'https://portal.example.com/a/RXizpOy124eIE3xqxwcjKA';

/** Types `text` then Enter into `target`, `gapMs` apart on the test's clock. */
function typeInto(target: Element, text: string, clock: { now: number }, gapMs: number): boolean {
  for (const key of text) {
    clock.now += gapMs;
    // A scanner presses Shift for capitals, as a keyboard does.
    if (key !== key.toLowerCase()) fireEvent.keyDown(target, { key: 'Shift' });
    fireEvent.keyDown(target, { key });
  }
  clock.now += gapMs;
  return fireEvent.keyDown(target, { key: 'Enter' });
}

function Listener({ scans, clock, enabled = true }: { scans: string[]; clock: { now: number }; enabled?: boolean }) {
  useKeyboardWedge(
    (text) => scans.push(text),
    enabled,
    () => clock.now,
  );
  return (
    <div>
      <button type="button">Check in</button>
      <input aria-label="Last name" />
    </div>
  );
}

describe('useKeyboardWedge', () => {
  it('yields a fast burst ended by Enter anywhere on the page, and swallows that Enter', () => {
    const scans: string[] = [];
    const clock = { now: 1_000 };
    const view = render(<Listener scans={scans} clock={clock} />);
    const notCancelled = typeInto(view.getByRole('button'), CODE, clock, 8);
    expect(scans).toEqual([CODE]);
    expect(notCancelled).toBe(false);
    // The parser path: the text a scanner typed gives the booking key.
    expect(bookingKeyFromCode(scans[0] ?? '')).toBe('RXizpOy124eIE3xqxwcjKA');
    typeInto(document.body, 'WIFI:S:lobby;;', clock, 5);
    expect(scans).toEqual([CODE, 'WIFI:S:lobby;;']);
  });

  it('ignores a person typing (keys further apart than the scanner limit), short bursts and a lone Enter', () => {
    const scans: string[] = [];
    const clock = { now: 1_000 };
    const view = render(<Listener scans={scans} clock={clock} />);
    expect(typeInto(view.getByRole('button'), CODE, clock, 120)).toBe(true);
    typeInto(document.body, 'abc', clock, 5);
    clock.now += 1_000;
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(scans).toEqual([]);
  });

  it('leaves keys typed into a text field to the field', () => {
    const scans: string[] = [];
    const clock = { now: 1_000 };
    const view = render(<Listener scans={scans} clock={clock} />);
    expect(typeInto(view.getByLabelText('Last name'), CODE, clock, 5)).toBe(true);
    expect(scans).toEqual([]);
  });

  it('listens only while enabled, and not after unmounting', () => {
    const scans: string[] = [];
    const clock = { now: 1_000 };
    const view = render(<Listener scans={scans} clock={clock} enabled={false} />);
    typeInto(document.body, CODE, clock, 5);
    view.rerender(<Listener scans={scans} clock={clock} enabled />);
    typeInto(document.body, CODE, clock, 5);
    view.unmount();
    typeInto(document.body, CODE, clock, 5);
    expect(scans).toEqual([CODE]);
  });
});

describe('createWedgeReader', () => {
  it('starts a new burst after a pause, so keys typed before a scan do not stick to it', () => {
    const reader = createWedgeReader();
    let at = 0;
    for (const key of 'xyz') reader.key(key, (at += 200));
    at += 500;
    let scanned: string | null = null;
    for (const key of CODE) scanned = reader.key(key, (at += 3));
    expect(scanned).toBeNull();
    expect(reader.key('Enter', (at += 3))).toBe(CODE);
  });

  it('drops a burst broken by a non-printable key or a gap over the limit', () => {
    const reader = createWedgeReader();
    let at = 0;
    for (const key of CODE.slice(0, 20)) reader.key(key, (at += 3));
    reader.key('Tab', (at += 3));
    for (const key of CODE.slice(20)) reader.key(key, (at += 3));
    expect(reader.key('Enter', (at += 3))).toBe(CODE.slice(20));
    for (const key of CODE) reader.key(key, (at += 3));
    expect(reader.key('Enter', (at += WEDGE_MAX_GAP_MS + 1))).toBeNull();
  });
});
