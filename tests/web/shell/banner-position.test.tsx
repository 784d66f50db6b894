import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RadiologyConfigSchema } from '@contract/api/config';
import { bannerPositionDeclarations, bannerPositionStyle, parseBannerPositionCss } from '@contract/shell/banner-position';
import { renderApp } from '../helpers/render-app';
import { testConfig } from '../helpers/test-config';

// The provider's banner position (docs/rules/shell.md#banner): a whitelist of declarations, never raw CSS.

describe('parseBannerPositionCss', () => {
  it.each([
    ['position: sticky; top: 0', { position: 'sticky', top: '0' }],
    ['position:fixed;bottom:1rem;left:0;right:0;', { position: 'fixed', bottom: '1rem', left: '0', right: '0' }],
    ['  POSITION : Relative ; max-width: 60% ; margin: 0 auto ', { position: 'relative', 'max-width': '60%', margin: '0 auto' }],
    ['top: -2.5px; top: 4px', { top: '4px' }],
    ['max-width: none; margin: 1px 2rem 3% auto', { 'max-width': 'none', margin: '1px 2rem 3% auto' }],
    ['', {}],
  ])('accepts %j', (css, expected) => {
    expect(parseBannerPositionCss(css)).toEqual({ ok: true, position: expected });
  });

  it.each([
    ['position: absolute', 'position "absolute" is not allowed'],
    ['z-index: 9999', '"z-index" is not allowed'],
    ['background: url(https://evil.example/x.png)', '"background" is not allowed'],
    ['top: calc(1px + 2px)', 'top "calc(1px + 2px)" is not allowed'],
    ['top: 10em', 'top "10em" is not allowed'],
    ['top: 0 !important', 'top "0 !important" is not allowed'],
    ['left: expression(alert(1))', 'left "expression(alert(1))" is not allowed'],
    ['}body{display:none', 'is not allowed'],
    ['margin: 1px 1px 1px 1px 1px', 'margin "1px 1px 1px 1px 1px" is not allowed'],
    ['position', 'position "" is not allowed'],
  ])('refuses %j with a clear message', (css, problem) => {
    const result = parseBannerPositionCss(css);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain(problem);
  });

  it('gives React a camelCase style object and the server plain declarations', () => {
    const result = parseBannerPositionCss('position: sticky; top: 0; max-width: 40rem');
    if (!result.ok) throw new Error(result.problem);
    expect(bannerPositionStyle(result.position)).toEqual({ position: 'sticky', top: '0', maxWidth: '40rem' });
    expect(bannerPositionDeclarations(result.position)).toBe('position:sticky;top:0;max-width:40rem');
  });

  it('is checked where the radiology configuration is validated, naming the problem', () => {
    const radiology = testConfig().radiology;
    expect(RadiologyConfigSchema.safeParse({ ...radiology, bannerPositionCss: 'position: sticky; top: 0' }).success).toBe(true);
    const refused = RadiologyConfigSchema.safeParse({ ...radiology, bannerPositionCss: 'position: absolute' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['bannerPositionCss']);
    expect(refused.error?.issues[0]?.message).toContain('use static, relative, sticky or fixed');
  });
});

describe('the banner in its configured place', () => {
  it('applies the accepted declarations as the banner element’s style', async () => {
    await renderApp('/about', {
      config: testConfig({
        app: { bannerEnabled: true, bannerHtml: '<p>Closed on Friday.</p>' },
        radiology: { bannerPositionCss: 'position: sticky; top: 0; max-width: 50rem' },
      }),
    });
    const banner = await screen.findByRole('region', { name: 'Announcement' });
    // The parser loads with a configured position only (off the booking home's entry chunk).
    await waitFor(() => expect(banner.style.position).toBe('sticky'));
    expect(banner.style.top).toBe('0px');
    expect(banner.style.maxWidth).toBe('50rem');
  });
});
