import { render, screen } from '@testing-library/react';
import Empty from 'antd/es/empty';
import dayjs from 'dayjs';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src-web/api/client';
import { AntdScope } from '../../../src-web/components/antd-scope';
import { portalDayjsLocaleName } from '../../../src-web/i18n/date-locale';
import { RootStore } from '../../../src-web/stores/root-store';
import { StoresProvider } from '../../../src-web/stores/use-stores';
import { testConfig } from '../helpers/test-config';

function renderScoped(locale: string) {
  const root = new RootStore({ config: testConfig({ app: { locale } }), client: createApiClient('http://127.0.0.1:9'), window });
  return render(
    <StoresProvider value={root}>
      <Suspense fallback={<p>loading antd</p>}>
        <AntdScope>
          <Empty />
        </AntdScope>
      </Suspense>
    </StoresProvider>,
  );
}

// The first test also pays for transforming antd on first import, hence the generous waits.
describe('AntdScope', () => {
  it('should load antd texts in the portal language only when an antd component renders', async () => {
    renderScoped('mk');
    expect(screen.getByText('loading antd')).toBeTruthy();
    expect(await screen.findByText('Нема податоци', { selector: '.ant-empty-description' }, { timeout: 10_000 })).toBeTruthy();
    expect(dayjs.locale()).toBe(portalDayjsLocaleName('mk'));
  });

  it('should use the regional English texts for en-AU', async () => {
    renderScoped('en-AU');
    expect(await screen.findByText('No data', { selector: '.ant-empty-description' }, { timeout: 10_000 })).toBeTruthy();
    expect(dayjs().locale(portalDayjsLocaleName('en-AU')).startOf('week').day()).toBe(1);
  });
});
