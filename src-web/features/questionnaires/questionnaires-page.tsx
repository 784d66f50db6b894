import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { QUESTIONNAIRE_TYPES, type QuestionnaireType } from '@contract/api/questionnaires';
import { ApiError } from '../../api/client';
import { useQuestionnaireTexts } from '../../i18n/questionnaire-texts';
import { isEmbeddedPath, paths } from '../../paths';
import { isExternalUrl, safeInternalPath, safeRedirectUrl } from '../../platform/safe-url';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { questionnaireStoreOf } from './questionnaire-store';
import { useStores } from '../../stores/use-stores';
import { RedirectCountdown } from './redirect-countdown';
import { preloadSurveyModal, QuestionnaireRunModal } from './survey-modal-lazy';
import './questionnaires.css';
import { patientAccessStoreOf } from '../patient-access/public';
import { isSignInNeeded } from '../../api/refusal';

function typesOf(raw: string | null): QuestionnaireType[] | undefined {
  if (!raw) return undefined;
  const known = new Set<string>(QUESTIONNAIRE_TYPES);
  const list = raw.split(',').filter((type): type is QuestionnaireType => known.has(type));
  return list.length > 0 ? list : undefined;
}

/**
 * /questionnaires and /q (also under /iframe): the questionnaires still pending for a
 * booking (?bookingKey=K, or ?appointmentSlug=S for the booking of one appointment;
 * ?type=BOOKING_REQUEST or PROTOCOL for a booking request, or one type; ?types=A,B), one at a
 * time, after the patient has signed in to that booking. When none are left the patient goes to
 * the redirect or the stored target (?target=/path), else reads 'already answered'.
 */
export const QuestionnairesPage = observer(function QuestionnairesPage() {
  const root = useStores();
  const store = root.featureStore(questionnaireStoreOf);
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const bookingKey = params.get('bookingKey') ?? '';
  const appointmentSlug = bookingKey ? '' : (params.get('appointmentSlug') ?? '');
  const [slugProblem, setSlugProblem] = useState<'unknown' | 'sign-in' | 'failed' | null>(null);
  const typeParam = params.get('type');
  // ?type= is the subject (APPOINTMENT, BOOKING_REQUEST) or one questionnaire type (the
  // appointment page's cancel: type=CANCEL_APPOINTMENT_PATIENT); ?types=A,B lists several.
  const typesParam = params.get('types') ?? (typesOf(typeParam) ? typeParam : null);
  const subject = typeParam === 'BOOKING_REQUEST' || typeParam === 'PROTOCOL' ? 'BOOKING_REQUEST' : 'APPOINTMENT';
  const target = params.get('target');
  const textsReady = useQuestionnaireTexts(root.i18n.i18n, root.i18n.locale);
  const left = useRef(false);
  const [countdown, setCountdown] = useState<string | null>(null);

  // An appointment slug: its booking key replaces it in the address, then the page goes on as usual.
  // The server names the booking only to a browser already signed in to it (401 otherwise, the
  // same for an unknown slug): the patient opens the booking's own link first.
  useEffect(() => {
    if (!appointmentSlug) return;
    let live = true;
    setSlugProblem(null);
    store.api.appointmentBooking(appointmentSlug).then(
      (found) => {
        if (!live) return;
        const next = new URLSearchParams(params);
        next.delete('appointmentSlug');
        next.set('bookingKey', found.bookingKey);
        navigate(`?${next.toString()}`, { replace: true });
      },
      (error: unknown) => {
        if (!live) return;
        if (isSignInNeeded(error)) setSlugProblem('sign-in');
        else setSlugProblem(error instanceof ApiError && (error.status === 404 || error.status === 400) ? 'unknown' : 'failed');
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [appointmentSlug]);

  useEffect(() => {
    if (!bookingKey) return;
    let live = true;
    preloadSurveyModal();
    void root
      .featureStore(patientAccessStoreOf)
      .ensureSignedIn(bookingKey, subject)
      .then((signedIn) => {
        if (live && signedIn) void store.load(subject, bookingKey, typesOf(typesParam));
      });
    return () => {
      live = false;
      store.reset();
    };
  }, [root, store, bookingKey, subject, typesParam]);

  const embedded = typeof window !== 'undefined' && isEmbeddedPath(window.location.pathname);
  const inLayout = (path: string) => (embedded ? paths.embedded(path) : path);

  // Where the run ends: a pain-score or protocol failure goes to /deny; the
  // redirect or the stored target are followed once everything is answered.
  const { state, failure, redirectUrl, answeredCount, closedUnanswered } = store;
  useEffect(() => {
    if (left.current) return;
    if (failure) {
      left.current = true;
      const named = failure.kind === 'pain-score' ? 'pain_score_problem' : 'booking_request_waiting_protocol_error';
      const query = failure.message ? `customMessage=${encodeURIComponent(failure.message)}` : `message=${named}`;
      navigate(`${inLayout(paths.deny())}?${query}&showClose=true`, { replace: true });
      return;
    }
    if (state !== 'done' || closedUnanswered || answeredCount === 0) return;
    // The redirect comes from the provider's configuration (may be another site); the stored
    // target comes from the link, so only a path of this portal is followed.
    const redirect = safeRedirectUrl(redirectUrl);
    if (redirect) {
      // The answers send the patient elsewhere: through the countdown, which they may stop.
      left.current = true;
      setCountdown(redirect);
      return;
    }
    const next = safeInternalPath(target);
    if (!next) return;
    left.current = true;
    navigate(inLayout(next), { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, failure, redirectUrl, answeredCount, closedUnanswered, target]);

  if (!textsReady) return <LoadingOverlay />;

  return (
    <Page title={t('questionnaire.title')} className="pp-questionnaires">
      {!bookingKey && (!appointmentSlug || slugProblem !== null) && (
        <p role="alert" className="pp-notice pp-notice-error">
          {slugProblem === 'failed'
            ? t('questionnaire.loadError')
            : slugProblem === 'sign-in'
              ? t('questionnaire.signInFirst')
              : t('questionnaire.missingKey')}
        </p>
      )}
      {appointmentSlug && slugProblem === null && <p role="status">{t('message.loading')}</p>}
      {bookingKey && (state === 'loading' || state === 'error' || state === 'idle') && (
        <PageLoadState
          failed={state === 'error'}
          errorText={t('questionnaire.loadError')}
          retryText={t('questionnaire.retry')}
          onRetry={() => void store.load(subject, bookingKey, typesOf(typesParam))}
        />
      )}
      {state === 'answering' && (
        <>
          <p>{t('questionnaire.intro')}</p>
          <p role="status">{t('questionnaire.left', { count: store.remaining })}</p>
        </>
      )}
      {state === 'done' && (
        <div role="status" className="pp-notice pp-notice-success" data-questionnaires-done tabIndex={-1} data-dialog-return>
          {store.cancelled && <p>{t('questionnaire.cancelled')}</p>}
          <p>{closedUnanswered ? t('questionnaire.closed') : t('message.questionnaires_already_answered')}</p>
        </div>
      )}
      <QuestionnaireRunModal store={store} locale={root.i18n.locale} />
      {countdown !== null && (
        <RedirectCountdown
          url={countdown}
          onGo={() => {
            setCountdown(null);
            if (isExternalUrl(countdown)) window.location.assign(countdown);
            else navigate(inLayout(countdown), { replace: true });
          }}
          onStay={() => setCountdown(null)}
        />
      )}
    </Page>
  );
});
