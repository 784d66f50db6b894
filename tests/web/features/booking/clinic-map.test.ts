import { describe, expect, it } from 'vitest';
import { tileUrlWithKey } from '../../../../src-web/features/booking/clinic-map-leaflet';
import { clinicCardId } from '../../../../src-web/features/booking/clinic-list';

describe('the clinic map', () => {
  it("puts the provider's API key into the tile URL, encoded", () => {
    expect(tileUrlWithKey({ tileUrl: 'https://maps.example/{z}/{x}/{y}.png?key={apiKey}', apiKey: 'a b&c' })).toBe(
      'https://maps.example/{z}/{x}/{y}.png?key=a%20b%26c',
    );
    expect(tileUrlWithKey({ tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', apiKey: null })).toBe(
      'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    );
  });

  it('names each card after its clinic, so a marker can bring it into view', () => {
    expect(clinicCardId('parramatta')).toBe('pp-clinic-parramatta');
  });
});
