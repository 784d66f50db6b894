import { useTranslation } from 'react-i18next';
import { SafeHtml } from '../../components/safe-html';
import { Page } from '../../components/page';
import { useReportFeedbackTexts } from './report-feedback-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';

/**
 * /referrer/report-feedback/faq: HTML from a translation key. The server's
 * translation overlay may replace it, so it is sanitised like any configured HTML.
 */
export function ReportFeedbackFaqPage() {
  const root = useStores();
  const { t } = useTranslation();
  const textsReady = useReportFeedbackTexts(root.i18n.i18n, root.i18n.locale);
  if (!textsReady) return <LoadingOverlay />;
  return (
    <Page title={t('reportFeedback.faqTitle')} className="pp-report-feedback-faq">
      <SafeHtml html={t('reportFeedback.faqHtml')} className="pp-report-feedback-faq-body" />
    </Page>
  );
}
