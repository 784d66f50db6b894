import { describe, expect, it } from 'vitest';
import { AppConfigSchema } from '@contract/api/config';
import { loadDemoProvider } from '../../../../src-server/db/seed/demo-provider';

// The analytics ids' formats (docs/rules/analytics.md#configuration): checked where the stored
// configuration is read, with a message that says what is expected.

describe('analytics and tracking ids', () => {
  async function appWith(values: Record<string, unknown>) {
    const { provider } = await loadDemoProvider();
    return AppConfigSchema.safeParse({ ...provider.app, version: '1', versionHash: 'x', ...values });
  }

  it.each([[{ analyticsId: 'G-ABC123DEF4' }], [{ trackingId: 'GTM-ABC1234' }], [{ analyticsId: null, trackingId: null }]])(
    'accepts %j',
    async (values) => {
      expect((await appWith(values)).success).toBe(true);
    },
  );

  it.each([
    [{ analyticsId: 'UA-12345-1' }, 'analyticsId', 'a GA4 measurement id such as G-ABC123DEF4'],
    [{ analyticsId: 'G-abc<script>' }, 'analyticsId', 'a GA4 measurement id'],
    [{ analyticsId: 'GTM-ABC1234' }, 'analyticsId', 'a GA4 measurement id'],
    [{ trackingId: 'G-ABC123DEF4' }, 'trackingId', 'a Tag Manager container id such as GTM-ABC1234'],
    [{ trackingId: 'GTM-ABC1234"' }, 'trackingId', 'a Tag Manager container id'],
  ])('refuses %j, naming the field and the expected form', async (values, field, message) => {
    const result = await appWith(values);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
    expect(result.error?.issues[0]?.message).toContain(message);
  });
});
