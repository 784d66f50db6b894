import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { SafeHtml } from '../../components/safe-html';
import { useStores } from '../../stores/use-stores';

/** Terms and conditions: HTML from GET /api/config/terms, sanitised again here. */
export const TermsPage = observer(function TermsPage() {
  const { content } = useStores();
  const { t } = useTranslation();
  useEffect(() => {
    void content.loadTerms();
  }, [content]);
  return (
    <Page title={t('terms.title')} className="pp-terms">
      {content.termsState === 'loaded' && <SafeHtml html={content.termsHtml} className="pp-rich-text" />}
      {content.termsState === 'error' && <p role="alert">{t('terms.loadError')}</p>}
      {(content.termsState === 'loading' || content.termsState === 'idle') && <p role="status">{t('message.loading')}</p>}
    </Page>
  );
});
