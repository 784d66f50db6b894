import { afterEach, describe, expect, it } from 'vitest';
import { asOrigin, claimedParentOrigin, readViewport, VIEWPORT_MESSAGE } from '../../../src-web/platform/embed-messages';
import { followParentViewport, viewportProperties } from '../../../src-web/platform/embed-viewport';
import { clinicBookingHref, groupByRegion, regionBookingHref } from '../../../src-web/features/select-region/region-clinics';
import type { ContactClinic } from '@contract/api/config';

describe('asOrigin', () => {
  it.each([
    ['https://www.example.com', 'https://www.example.com'],
    ['http://127.0.0.1:4441', 'http://127.0.0.1:4441'],
    ['https://www.example.com/', null],
    ['https://www.example.com/path', null],
    ['javascript:alert(1)', null],
    ['null', null],
    ['', null],
  ])('%s → %s', (value, expected) => {
    expect(asOrigin(value)).toBe(expected);
  });
});

describe('claimedParentOrigin', () => {
  afterEach(() => sessionStorage.clear());

  it('is null when the page is not in a frame', () => {
    expect(claimedParentOrigin(window)).toBeNull();
  });

  it("reads the script's parentOrigin and keeps it for the frame's later pages", () => {
    const framed = {
      parent: {},
      location: { search: '?parentOrigin=https%3A%2F%2Fprovider.example' },
      sessionStorage,
    } as unknown as Window;
    expect(claimedParentOrigin(framed)).toBe('https://provider.example');
    const later = { parent: {}, location: { search: '' }, sessionStorage } as unknown as Window;
    expect(claimedParentOrigin(later)).toBe('https://provider.example');
  });
});

describe('readViewport', () => {
  it('reads a viewport message and nothing else', () => {
    expect(readViewport({ type: VIEWPORT_MESSAGE, top: 1200, height: 844 })).toEqual({ top: 1200, height: 844 });
    expect(readViewport({ type: VIEWPORT_MESSAGE, top: -5, height: 844 })).toEqual({ top: 0, height: 844 });
    expect(readViewport({ type: 'radiology-portal:height', height: 5 })).toBeNull();
    expect(readViewport({ type: VIEWPORT_MESSAGE, top: '1', height: 2 })).toBeNull();
    expect(readViewport({ type: VIEWPORT_MESSAGE, top: Number.NaN, height: 2 })).toBeNull();
    expect(readViewport('radiology-portal:viewport')).toBeNull();
  });
});

describe('viewportProperties', () => {
  it('puts dialogs in the visible part of a tall frame', () => {
    expect(viewportProperties({ top: 1500, height: 844 }, 3000)).toEqual({
      '--pp-embed-top': '1500px',
      '--pp-embed-bottom': '656px',
      '--pp-embed-height': '844px',
    });
  });

  it('widens a thin visible strip to 320 px, inside the frame', () => {
    expect(viewportProperties({ top: 2950, height: 50 }, 3000)).toEqual({
      '--pp-embed-top': '2680px',
      '--pp-embed-bottom': '0px',
      '--pp-embed-height': '320px',
    });
  });
});

describe('followParentViewport', () => {
  it('takes viewport messages from the parent origin only', () => {
    const root = document.documentElement;
    let first = 0;
    const stop = followParentViewport(window, 'https://provider.example', () => (first += 1));
    const data = { type: VIEWPORT_MESSAGE, top: 100, height: 400 };
    // jsdom: the test window is its own parent.
    window.dispatchEvent(new MessageEvent('message', { data, origin: 'https://evil.example', source: window }));
    expect(root.style.getPropertyValue('--pp-embed-top')).toBe('');
    window.dispatchEvent(new MessageEvent('message', { data, origin: 'https://provider.example', source: window }));
    expect(root.style.getPropertyValue('--pp-embed-top')).not.toBe('');
    expect(first).toBe(1);
    stop();
    expect(root.style.getPropertyValue('--pp-embed-top')).toBe('');
  });
});

describe('groupByRegion', () => {
  const clinic = (slug: string, region: string, latitude: number, longitude: number): ContactClinic =>
    ({
      id: slug,
      slug,
      name: slug,
      region: { id: region, slug: region, name: region },
      latitude,
      longitude,
    }) as ContactClinic;

  it('groups the clinics by region in order, with the middle of each region', () => {
    const groups = groupByRegion([clinic('a', 'north', -33, 151), clinic('b', 'south', -28, 153), clinic('c', 'north', -34, 150)]);
    expect(groups.map((group) => [group.region.id, group.clinics.map((entry) => entry.slug)])).toEqual([
      ['north', ['a', 'c']],
      ['south', ['b']],
    ]);
    expect(groups[0]?.centre).toEqual({ latitude: -33.5, longitude: 150.5 });
    expect(regionBookingHref('/iframe/advanced-booking', groups[0]!)).toBe('/iframe/advanced-booking?lat=-33.5000&lng=150.5000');
    expect(clinicBookingHref('/iframe/advanced-booking', clinic('parramatta', 'north', -33.81, 151.0))).toBe(
      '/iframe/advanced-booking?clinic=parramatta&lat=-33.8100&lng=151.0000',
    );
  });
});
