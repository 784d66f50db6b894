import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../../../../src-web/i18n/create-i18n';
import { loadKioskScanTexts } from '../../../../src-web/i18n/kiosk-scan-texts';

/** Renders a kiosk-scan component with the English texts it uses (translation.json and kiosk-scan.json). */
export async function renderWithTexts(element: ReactElement): Promise<RenderResult> {
  const i18n = await createI18n('en', {});
  await loadKioskScanTexts(i18n, 'en');
  return render(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
}
