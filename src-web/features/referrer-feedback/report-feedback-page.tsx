import { useEffect } from 'react';
import { quickReportPath } from '@contract/api/image-viewer';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { useQuestionnaireTexts } from '../../i18n/questionnaire-texts';
import { useReportFeedbackTexts } from './report-feedback-texts';
import { paths } from '../../paths';
import { usePortalHref } from '../../shell/embedded';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { LazySurveyModal } from '../questionnaires/public';
import { formatReportedAt, FROM_LIST, FROM_PARAM } from '../referrer-reports/public';
import { reportFeedbackStoreOf, type ReportFeedbackStore } from './report-feedback-store';

/**
 * Where the page goes after the thank-you: back to the quick report the doctor came from
 * (`return=report`, with its archive and whether it was opened from the list), else the provider's
 * configured page. The way back is built here from the imsec, never taken from the query, so the
 * page cannot be made to send anyone elsewhere.
 */
function returnUrlOf(search: URLSearchParams, configured: string | null): string | null {
  const imsec = search.get('imsec')?.trim() ?? '';
  if (search.get('return') !== 'report' || imsec === '') return configured;
  const path = quickReportPath(imsec, search.get('repositorySource') ?? undefined);
  return search.get(FROM_PARAM) === FROM_LIST ? `${path}&${FROM_PARAM}=${FROM_LIST}` : path;
}

/** The survey modal with the report's questionnaire (size from the server, lg by default). */
const FeedbackSurvey = observer(function FeedbackSurvey({ store, locale }: { store: ReportFeedbackStore; locale: string }) {
  const { t } = useTranslation();
  const questionnaire = store.questionnaire;
  if (!store.surveyOpen || questionnaire === null) return null;
  return (
    <LazySurveyModal
      key={questionnaire.questionnaireId}
      questionnaire={{
        id: questionnaire.questionnaireId,
        type: 'FEEDBACK',
        json: questionnaire.questionnaire,
        // Which report it rates, also inside the modal.
        title: t('reportFeedback.surveyTitleFor', { patient: questionnaire.report.patientName, exam: questionnaire.report.examName }),
        modalSize: questionnaire.modalSize,
        css: {},
        showClose: true,
        showClosingConfirmation: false,
        showPreviousButtonOnLastPageEnabled: true,
      }}
      error={store.submitError}
      locale={locale}
      onSubmit={(result) => store.submit(result, t('message.error_answering_questionnaire'))}
      onClose={() => store.closeSurvey()}
    />
  );
});

/** The thank-you: announced once (role status); the countdown beside it is not re-announced every second. */
const Provided = observer(function Provided({ store, toReport }: { store: ReportFeedbackStore; toReport: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="pp-notice" data-state="provided">
      <p role="status">{t('reportFeedback.provided')}</p>
      {store.redirectUrl !== null && (
        <p>
          <span aria-live="off" data-testid="redirect-countdown">
            {toReport
              ? t('reportFeedback.returnIn', { count: store.secondsLeft })
              : t('reportFeedback.redirectIn', { count: store.secondsLeft })}
          </span>{' '}
          <Button variant="secondary" onClick={() => store.redirectNow()}>
            {toReport ? t('reportFeedback.returnNow') : t('reportFeedback.continue')}
          </Button>
        </p>
      )}
    </div>
  );
});

const Body = observer(function Body({ store, locale, toReport }: { store: ReportFeedbackStore; locale: string; toReport: boolean }) {
  const { t } = useTranslation();
  switch (store.state) {
    case 'loading':
      return <p role="status">{t('message.loading')}</p>;
    case 'error':
      return (
        <div role="alert" className="pp-notice pp-notice-error" data-state="error">
          <p>{t('reportFeedback.error')}</p>
        </div>
      );
    case 'noCredentials':
      return (
        <div role="alert" className="pp-notice pp-notice-error" data-state="no-credentials">
          <p>{t('reportFeedback.noCredentials')}</p>
        </div>
      );
    case 'alreadyProvided':
      return (
        <p role="status" className="pp-notice" data-state="already-provided">
          {t('reportFeedback.alreadyProvided')}
        </p>
      );
    case 'provided':
      return <Provided store={store} toReport={toReport} />;
    case 'redirect':
      return <p role="status">{t('reportFeedback.redirecting')}</p>;
    case 'questionnaire':
      return (
        <>
          {store.questionnaire !== null && (
            <p data-testid="feedback-report">
              {t('reportFeedback.about', {
                patient: store.questionnaire.report.patientName,
                exam: store.questionnaire.report.examName,
                date: formatReportedAt(store.questionnaire.report.reportedAt, locale),
              })}
            </p>
          )}
          <p>{t('reportFeedback.intro')}</p>
          {!store.surveyOpen && <Button onClick={() => store.openSurvey()}>{t('reportFeedback.open')}</Button>}
          <FeedbackSurvey store={store} locale={locale} />
        </>
      );
  }
});

/**
 * /referrer/report-feedback?imsec=… or ?accession=… (docs/rules/referrers.md#the-pages): the referring doctor's
 * report-quality feedback, once per report, in the survey modal; then a thank-you and, after
 * 4 s, the report the doctor came from, else the provider's configured page.
 */
export const ReportFeedbackPage = observer(function ReportFeedbackPage() {
  const root = useStores();
  const store = root.featureStore(reportFeedbackStoreOf);
  const { t } = useTranslation();
  const href = usePortalHref();
  const [search] = useSearchParams();
  const imsec = search.get('imsec');
  const accession = search.get('accession');
  const { referrerReportQualityFeedbackEnabled: enabled, referrerReportQualityFeedbackRedirectUrl: configured } = root.config.app;
  const redirectUrl = returnUrlOf(search, configured);
  const toReport = redirectUrl !== null && redirectUrl !== configured;
  const textsReady = useReportFeedbackTexts(root.i18n.i18n, root.i18n.locale);
  const surveyTextsReady = useQuestionnaireTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void store.open({ imsec, accession, enabled, redirectUrl });
    return () => store.dispose();
  }, [store, imsec, accession, enabled, redirectUrl]);

  if (!textsReady || !surveyTextsReady) return <LoadingOverlay />;
  return (
    <Page title={t('reportFeedback.title')} className="pp-report-feedback">
      {toReport && redirectUrl !== null && (
        <p>
          {/* A full load: the quick report opens from its imsec like from the mail. */}
          <a href={redirectUrl}>
            <span aria-hidden="true">← </span>
            {t('reportFeedback.backToReport')}
          </a>
        </p>
      )}
      <Body store={store} locale={root.i18n.locale} toReport={toReport} />
      <p>
        <Link to={href(paths.referrerReportFeedbackFaq())}>{t('reportFeedback.faqLink')}</Link>
      </p>
    </Page>
  );
});
