import { useTranslation } from 'react-i18next';
import { paths } from '../../paths';
import { Page } from '../../components/page';

/** /iframe-test: the portal framed the way a provider's site embeds it (docs/rules/embedding.md#iframe-prefix). */
export function IframeTestPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('iframeTest.title')} className="pp-iframe-test">
      <p>{t('iframeTest.text')}</p>
      <iframe className="pp-test-frame" src={paths.selectRegion()} title={t('iframeTest.frameTitle')} />
    </Page>
  );
}
