import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DOCUMENT_ACTIVITY_EVENTS,
  IDLE_DIALOG_CLASS,
  isInsideIdleDialog,
  watchActivity,
} from '../../../../src-web/features/kiosk-idle/activity-watch';
import { kioskIdleStore } from '../../../../src-web/features/kiosk-idle/kiosk-idle-store';
import { renderApp } from '../../helpers/render-app';

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe('watchActivity', () => {
  it('should count pointer, key, touch, wheel and scroll on the document and storage on the window, until stopped', () => {
    const onActivity = vi.fn();
    const stop = watchActivity(window, onActivity);
    const target = document.body.appendChild(document.createElement('div'));
    for (const type of DOCUMENT_ACTIVITY_EVENTS) target.dispatchEvent(new Event(type, { bubbles: type !== 'scroll' }));
    window.dispatchEvent(new Event('storage'));
    expect(onActivity).toHaveBeenCalledTimes(DOCUMENT_ACTIVITY_EVENTS.length + 1);
    stop();
    fireEvent.keyDown(target, { key: 'a' });
    window.dispatchEvent(new Event('storage'));
    expect(onActivity).toHaveBeenCalledTimes(DOCUMENT_ACTIVITY_EVENTS.length + 1);
  });

  it('should count activity even when the page stops the event (capture phase)', () => {
    const onActivity = vi.fn();
    const stop = watchActivity(window, onActivity);
    const target = document.body.appendChild(document.createElement('button'));
    target.addEventListener('pointerdown', (event) => event.stopPropagation());
    fireEvent.pointerDown(target);
    expect(onActivity).toHaveBeenCalledOnce();
    stop();
  });
});

describe('isInsideIdleDialog', () => {
  function idleDialog() {
    const dialog = document.body.appendChild(document.createElement('dialog'));
    dialog.className = `pp-dialog ${IDLE_DIALOG_CLASS}`;
    const button = dialog.appendChild(document.createElement('button'));
    vi.spyOn(dialog, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ x: 100, y: 100, width: 400, height: 200 }));
    return { dialog, button };
  }
  const eventOn = (target: EventTarget, event: Event) => {
    let inside: boolean | null = null;
    target.addEventListener(event.type, (received) => (inside = isInsideIdleDialog(received)), { once: true });
    target.dispatchEvent(event);
    return inside;
  };

  it("should leave the dialog's content to its buttons", () => {
    const { button } = idleDialog();
    expect(eventOn(button, new MouseEvent('pointerdown', { clientX: 150, clientY: 150 }))).toBe(true);
    expect(eventOn(button, new KeyboardEvent('keydown', { key: 'Tab' }))).toBe(true);
  });

  it('should count a tap on the backdrop (the dialog element, outside its box) as activity', () => {
    const { dialog } = idleDialog();
    expect(eventOn(dialog, new MouseEvent('pointerdown', { clientX: 20, clientY: 20 }))).toBe(false);
    expect(eventOn(dialog, new MouseEvent('pointerdown', { clientX: 300, clientY: 150 }))).toBe(true);
  });

  it('should count everything elsewhere', () => {
    idleDialog();
    const page = document.body.appendChild(document.createElement('p'));
    expect(eventOn(page, new MouseEvent('pointermove', { clientX: 150, clientY: 150 }))).toBe(false);
    expect(eventOn(window, new Event('storage'))).toBe(false);
  });
});

describe('the idle watch in the app', () => {
  it('should run in kiosk mode', async () => {
    const { root } = await renderApp('/about?kioskMode=true');
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(root.featureStore(kioskIdleStore).watching).toBe(true));
  });

  it('should not run outside kiosk mode', async () => {
    const { root } = await renderApp('/about');
    await screen.findByRole('heading', { level: 1 });
    // Give a lazily loaded watch the time it would need to start.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(root.featureStore(kioskIdleStore).watching).toBe(false);
  });
});
