import { describe, expect, it } from 'vitest';
import { BootstrapConfigSchema } from '@contract/api/config';
import { parseConfig } from '../../../../src-server/config';
import { tileOrigin } from '../../../../src-server/modules/config/service';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';

/** The map's tiles (docs/rules/booking.md#the-clinic-list-and-map): configured per provider, allowed by img-src. */

function imgSrc(header: string | string[] | number | undefined): string[] {
  const part = String(header ?? '')
    .split(';')
    .map((item) => item.trim())
    .find((item) => item.startsWith('img-src '));
  return part?.split(/\s+/).slice(1) ?? [];
}

describe.each(backends())('map tiles from the provider configuration on %s', (backend) => {
  const server = useTestApp({ backend });

  it("answers the demo provider's tiles with a sanitised attribution and lets pages load them", async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/config/bootstrap' });
    const body = BootstrapConfigSchema.parse(response.json());
    expect(body.radiology.map).toMatchObject({ tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', apiKey: null, maxZoom: 19 });
    expect(body.radiology.map?.attribution).toContain('OpenStreetMap');
    const page = await server.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(imgSrc(page.headers['content-security-policy'])).toEqual(["'self'", 'data:', 'https://tile.openstreetmap.org']);
  });

  it('strips markup a tile attribution must not carry, and follows a changed tile host in img-src', async () => {
    await server.db.query(`update provider set radiology_config = jsonb_set(radiology_config, '{map}', $1::jsonb)`, [
      JSON.stringify({
        tileUrl: 'https://maps.example.net/tiles/{z}/{x}/{y}.png?key={apiKey}',
        attribution: 'Maps <script>alert(1)</script><a href="javascript:alert(1)" onclick="x()">Example</a>',
        apiKey: 'public-key',
        maxZoom: 18,
      }),
    ]);
    server.clock.advance(31_000);
    const body = BootstrapConfigSchema.parse((await server.app.inject({ method: 'GET', url: '/api/config/bootstrap' })).json());
    expect(body.radiology.map?.attribution).not.toMatch(/script|javascript|onclick/);
    expect(body.radiology.map?.attribution).toContain('Example');
    const response = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(imgSrc(response.headers['content-security-policy'])).toEqual(["'self'", 'data:', 'https://maps.example.net']);
  });

  it('draws no map and allows no tile host when the provider has no tiles', async () => {
    await server.db.query(`update provider set radiology_config = radiology_config - 'map'`);
    server.clock.advance(31_000);
    const body = BootstrapConfigSchema.parse((await server.app.inject({ method: 'GET', url: '/api/config/bootstrap' })).json());
    expect(body.radiology.map).toBeUndefined();
    const response = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(imgSrc(response.headers['content-security-policy'])).toEqual(["'self'", 'data:']);
  });
});

describe('MAP_TILE_URL replaces the tile host', () => {
  const server = useTestApp({ env: { MAP_TILE_URL: 'http://127.0.0.1:4426/{z}/{x}/{y}.png' } });

  it('in the bootstrap and in img-src (the tests serve their own tiles)', async () => {
    const body = BootstrapConfigSchema.parse((await server.app.inject({ method: 'GET', url: '/api/config/bootstrap' })).json());
    expect(body.radiology.map?.tileUrl).toBe('http://127.0.0.1:4426/{z}/{x}/{y}.png');
    const response = await server.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(imgSrc(response.headers['content-security-policy'])).toEqual(["'self'", 'data:', 'http://127.0.0.1:4426']);
  });
});

describe('tile URL validation', () => {
  const context = { cwd: '/tmp', packageVersion: '0.0.0', gitShortHash: null };

  it.each([
    ['no placeholders', 'https://tiles.example/map.png', /\{z\}/],
    ['not http', 'ftp://tiles.example/{z}/{x}/{y}.png', /http/],
    ['a host with a placeholder', 'https://{s}.tiles.example/{z}/{x}/{y}.png', /fixed host/],
  ])('refuses MAP_TILE_URL with %s', (_label, value, message) => {
    const result = parseConfig({ MAP_TILE_URL: value }, context);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.join('\n')).toMatch(message);
  });

  it('finds the origin of a template', () => {
    expect(tileOrigin('https://maps.example.net:8443/{z}/{x}/{y}.png?key={apiKey}')).toBe('https://maps.example.net:8443');
    expect(tileOrigin(null)).toBeNull();
  });
});
