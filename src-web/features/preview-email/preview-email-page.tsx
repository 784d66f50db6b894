import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { SupportedLocale } from '@contract/api/locales';
import { AntdScope } from '../../components/antd-scope';
import { Page } from '../../components/page';
import { StaffSignInNotice } from '../../components/staff-sign-in-action';
import { PageLoadState } from '../../components/page-load-state';
import { useStaffTexts } from '../../i18n/staff-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { PHONE_WIDTH, previewEmailStoreOf, type PreviewEmailStore } from './preview-email-store';
import { PreviewPickers } from './preview-pickers';
import './preview-email.css';

const Problem = observer(function Problem({ store, locale }: { store: PreviewEmailStore; locale: SupportedLocale }) {
  const { t } = useTranslation();
  const problem = store.problem;
  switch (problem?.kind) {
    case undefined:
      return null;
    case 'noReference':
      return (
        <p role="alert" className="pp-notice pp-notice-error" data-problem="noReference">
          {t('previewEmail.noReference')}
        </p>
      );
    case 'signInNeeded':
      return (
        <StaffSignInNotice
          text={t('previewEmail.signInNeeded')}
          label={t('previewEmail.signIn')}
          onSignedIn={() => void store.retry(locale)}
        />
      );
    case 'server':
      // The server's own explanation (unknown template, language or reference; a role without access).
      return (
        <p role="alert" className="pp-notice pp-notice-error" data-problem="server">
          {problem.message}
        </p>
      );
    case 'unavailable':
      return (
        <PageLoadState
          failed
          errorText={t('previewEmail.unavailable')}
          retryText={t('previewEmail.retry')}
          onRetry={() => void store.retry(locale)}
        />
      );
  }
});

/** What became of "send a test to me": where it went, or why not (the server's message, e.g. the hourly limit). */
const SendOutcome = observer(function SendOutcome({ store }: { store: PreviewEmailStore }) {
  const { t } = useTranslation();
  const problem = store.sendProblem;
  return (
    <div role="status" className="pp-preview-email-send-outcome">
      {store.sent !== null && <p className="pp-notice">{t('previewEmail.sent', { recipient: store.sent.recipient })}</p>}
      {problem !== null && (
        <p className="pp-notice pp-notice-error" data-problem="send">
          {problem.kind === 'server'
            ? problem.message
            : problem.kind === 'signInNeeded'
              ? t('previewEmail.signInNeeded')
              : t('previewEmail.unavailable')}
        </p>
      )}
    </div>
  );
});

const Preview = observer(function Preview({ store }: { store: PreviewEmailStore }) {
  const { t } = useTranslation();
  const preview = store.preview;
  if (preview === null) return null;
  return (
    <>
      <p>{t('previewEmail.notSent')}</p>
      <section aria-labelledby="pp-preview-email-subject">
        <h2 id="pp-preview-email-subject">{t('previewEmail.subject')}</h2>
        <p data-testid="preview-email-subject">{preview.subject}</p>
      </section>
      <section aria-labelledby="pp-preview-email-html">
        <h2 id="pp-preview-email-html">{t('previewEmail.htmlVersion')}</h2>
        {/* sandbox="": no script, no forms, no same-origin access; the mail is shown, never run. The
            server serves the HTML as a page of its own whose policy allows the mail's inline styles
            (a srcdoc frame would inherit the portal's policy, which drops them). */}
        <iframe
          className="pp-preview-email-frame"
          style={store.width === 'phone' ? { width: `${PHONE_WIDTH}px` } : undefined}
          data-width={store.width}
          sandbox=""
          src={store.htmlUrl ?? undefined}
          title={t('previewEmail.htmlFrameTitle', { subject: preview.subject })}
          referrerPolicy="no-referrer"
        />
      </section>
      <section aria-labelledby="pp-preview-email-text">
        <h2 id="pp-preview-email-text">{t('previewEmail.textVersion')}</h2>
        <pre className="pp-preview-email-text" data-testid="preview-email-text">
          {preview.text}
        </pre>
      </section>
    </>
  );
});

/**
 * /preview-email: the real e-mail of any kind for a recent record in any language, for staff, with
 * "send a test to me"; ?template&lang&referenceId preselect the pickers (docs/rules/notifications.md#e-mail-preview).
 */
export const PreviewEmailPage = observer(function PreviewEmailPage() {
  const root = useStores();
  const store = root.featureStore(previewEmailStoreOf);
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const locale = root.i18n.locale;
  const textsReady = useStaffTexts(root.i18n.i18n, root.i18n.locale);
  const search = params.toString();

  useEffect(() => {
    void store.open(new URLSearchParams(search), locale);
    return () => store.dispose();
  }, [store, search, locale]);

  if (!textsReady) return <LoadingOverlay />;
  return (
    <Page title={t('previewEmail.title')} className="pp-preview-email">
      <AntdScope>
        <PreviewPickers store={store} navigate={(next) => setParams(next, { replace: true })} />
      </AntdScope>
      <SendOutcome store={store} />
      {store.loadState === 'loading' && <PageLoadState failed={false} errorText="" retryText="" onRetry={() => undefined} />}
      <Problem store={store} locale={locale} />
      <Preview store={store} />
    </Page>
  );
});
