import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { ReferrerReport } from '@contract/api/quick-report';
import { Button, ButtonLink } from '../../components/button';
import { Page } from '../../components/page';
import { useQuickReportTexts } from './quick-report-texts';
import { useResultsTexts } from '../../i18n/results-texts';
import { formatCalendarDate } from '../../platform/dates';
import { hrefOf, ROUTE } from '../../paths';
import { usePortalHref } from '../../shell/embedded';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { formatReportedAt, FROM_LIST, FROM_PARAM } from '../referrer-reports/public';
import { ExamFactItems, ReportPdfLinks, ReportText } from '../results/public';
import { quickReportStoreOf, type QuickReportStore } from './quick-report-store';
import './quick-report.css';

/** Whom and what the report is about: the patient, the examination and its accession number. */
const ReportHeading = observer(function ReportHeading({ report }: { report: ReferrerReport }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  return (
    <section aria-labelledby="pp-quick-report-exam">
      <h2 id="pp-quick-report-exam">{report.examName}</h2>
      <dl className="pp-details">
        <div>
          <dt>{t('quickReport.patient')}</dt>
          <dd data-testid="quick-report-patient">
            {report.patient.firstName} {report.patient.lastName}
          </dd>
        </div>
        <div>
          <dt>{t('quickReport.dateOfBirth')}</dt>
          <dd>
            {/* As the report list writes it (referrer-access/report-list.tsx). */}
            <time dateTime={report.patient.dateOfBirth}>{formatCalendarDate(report.patient.dateOfBirth, i18n.locale)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('quickReport.accession')}</dt>
          <dd>{report.accessionNumber}</dd>
        </div>
        <ExamFactItems exam={report} />
        <div>
          <dt>{t('quickReport.referrer')}</dt>
          <dd>{report.referrerName}</dd>
        </div>
        <div>
          <dt>{t('quickReport.reported')}</dt>
          <dd>
            {/* As the report list writes it. */}
            <time dateTime={report.reportedAt}>{formatReportedAt(report.reportedAt, i18n.locale)}</time>
          </dd>
        </div>
      </dl>
    </section>
  );
});

/** The images: the viewer in a frame, "not available yet" while they are generated, or the generation error. */
const Images = observer(function Images({ store, report }: { store: QuickReportStore; report: ReferrerReport }) {
  const { t } = useTranslation();
  return (
    <section className="pp-quick-report-images" aria-labelledby="pp-quick-report-images">
      <h2 id="pp-quick-report-images">{t('quickReport.imagesTitle')}</h2>
      {store.images === 'viewer' && store.frameUrl !== null && (
        <>
          <iframe
            className="pp-quick-report-frame"
            src={store.frameUrl}
            title={t('quickReport.viewerFrame', { exam: report.examName })}
            data-testid="quick-report-viewer"
          />
          <p>
            <a href={store.viewerUrl ?? undefined} target="_blank" rel="noopener noreferrer">
              {t('quickReport.openViewer')}
            </a>
          </p>
        </>
      )}
      {store.images === 'notAvailable' && (
        <p className="pp-notice" role="status" data-state="notAvailable">
          {t('quickReport.notAvailable')}
        </p>
      )}
      {store.images === 'generationError' && (
        <div className="pp-notice pp-notice-error" role="alert" data-state="generationError">
          <p>{t('quickReport.generationError')}</p>
          <Button variant="secondary" onClick={() => void store.retryImages()}>
            {t('quickReport.retryImages')}
          </Button>
        </div>
      )}
    </section>
  );
});

/** The header's actions: the provider's PACS and, when the provider asks for it, feedback on the report. */
function HeaderActions({ store, report, feedbackEnabled }: { store: QuickReportStore; report: ReferrerReport; feedbackEnabled: boolean }) {
  const { t } = useTranslation();
  const feedbackPath = store.feedbackPath;
  if (report.pacsUrl === null && !(feedbackEnabled && feedbackPath !== null)) return null;
  return (
    <div className="pp-button-row pp-quick-report-actions">
      {report.pacsUrl !== null && (
        <ButtonLink variant="secondary" href={report.pacsUrl} target="_blank" rel="noopener noreferrer">
          {t('quickReport.openPacs')}
        </ButtonLink>
      )}
      {feedbackEnabled && feedbackPath !== null && (
        <ButtonLink variant="secondary" href={feedbackPath}>
          {t('quickReport.feedback')}
        </ButtonLink>
      )}
    </div>
  );
}

/** Back to the doctor's report list: when they came from it, or are signed in as a referrer. */
const BackToList = observer(function BackToList({ store }: { store: QuickReportStore }) {
  const { t } = useTranslation();
  const { staff } = useStores();
  const href = usePortalHref();
  if (!store.fromList && !staff.hasAnyRole(['referrer'])) return null;
  return (
    <p className="pp-quick-report-back">
      <Link to={href(hrefOf(ROUTE.referrerAccess))}>
        <span aria-hidden="true">← </span>
        {t('quickReport.backToList')}
      </Link>
    </p>
  );
});

const QuickReportView = observer(function QuickReportView({
  store,
  feedbackEnabled,
}: {
  store: QuickReportStore;
  feedbackEnabled: boolean;
}) {
  const { t } = useTranslation();
  const { report } = store;
  return (
    <Page title={t('quickReport.title')} className="pp-quick-report">
      <BackToList store={store} />
      {(store.state === 'loading' || store.state === 'leaving') && <p role="status">{t('message.loading')}</p>}
      {store.state === 'error' && (
        <div role="alert" className="pp-notice pp-notice-error">
          <p>
            {store.problem === 'noCredentials'
              ? t('quickReport.noCredentials')
              : store.problem === 'noAccess'
                ? t('quickReport.noAccess')
                : t('quickReport.loadError')}
          </p>
          {store.problem === 'failed' && (
            <Button variant="secondary" onClick={() => void store.retry()}>
              {t('quickReport.retry')}
            </Button>
          )}
        </div>
      )}
      {store.state === 'ready' && report !== null && (
        <>
          <HeaderActions store={store} report={report} feedbackEnabled={feedbackEnabled} />
          <ReportHeading report={report} />
          <section aria-labelledby="pp-quick-report-text">
            <h2 id="pp-quick-report-text">{t('quickReport.reportTitle')}</h2>
            <ReportText text={report.reportText} />
            <ReportPdfLinks viewUrl={store.pdfUrl(false) ?? undefined} downloadUrl={store.pdfUrl(true) ?? undefined} />
          </section>
          <Images store={store} report={report} />
        </>
      )}
    </Page>
  );
});

/** /referrer/quick-report?imsec=…&repositorySource=…: the referring doctor's report and images (docs/rules/referrers.md#quick-report). */
export const QuickReportPage = observer(function QuickReportPage() {
  const root = useStores();
  const store = root.featureStore(quickReportStoreOf);
  const [params] = useSearchParams();
  const imsec = params.get('imsec');
  const repositorySource = params.get('repositorySource');
  const fromList = params.get(FROM_PARAM) === FROM_LIST;
  const ownTexts = useQuickReportTexts(root.i18n.i18n, root.i18n.locale);
  const resultTexts = useResultsTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void store.open(imsec, repositorySource, fromList);
    return () => store.dispose();
  }, [store, imsec, repositorySource, fromList]);

  if (!ownTexts || !resultTexts) return <LoadingOverlay />;
  return <QuickReportView store={store} feedbackEnabled={root.config.app.referrerReportQualityFeedbackEnabled} />;
});
