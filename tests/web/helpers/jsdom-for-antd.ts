/**
 * What antd (Table, Form, Select, Segmented) asks of the browser and jsdom lacks: matchMedia (responsive columns and
 * pagination; no query matches here) and ResizeObserver (sticky headers, scroll). Imported for
 * its effect by the tests of pages with antd tables.
 */
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  });
}

if (typeof globalThis.ResizeObserver !== 'function') {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

export {};
