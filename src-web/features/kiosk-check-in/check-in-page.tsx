import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { Page } from '../../components/page';
import { useKioskTexts } from '../../i18n/kiosk-texts';
import { useSelfServiceTexts } from '../../i18n/self-service-texts';
import { paths } from '../../paths';
import { usePortalHref } from '../../shell/embedded';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { ConsentStep } from './kiosk-consent-step';
import { FeedbackStep } from './kiosk-feedback';
import { kioskCheckInPath } from './kiosk-paths';
import { QuestionnairesStep } from './kiosk-questionnaires-step';
import { kioskCheckInStoreOf, kioskDeviceStoreOf } from './kiosk-stores';
import { ConfirmStep, DoneStep, ErrorStep, OtpStep, ProcessingStep } from './kiosk-steps';
import './kiosk-check-in.css';

/**
 * /check-in?step=…&kioskMode=true (docs/rules/kiosk.md#kiosk-check-in-in-the-web-app): the steps after the kiosk found one booking.
 * The store decides the step and the URL follows it; a visit without a check-in under way (a
 * reload, a typed address) goes to the kiosk home, as does a kiosk revoked meanwhile.
 */
export const CheckInPage = observer(function CheckInPage() {
  const root = useStores();
  const store = root.featureStore(kioskCheckInStoreOf);
  const device = root.featureStore(kioskDeviceStoreOf);
  const kioskTexts = useKioskTexts(root.i18n.i18n, root.i18n.locale);
  // message.check_in_error and its description are the self-service catalogue's.
  const selfServiceTexts = useSelfServiceTexts(root.i18n.i18n, root.i18n.locale);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { t } = useTranslation();
  // Under /iframe every step stays in the frame's layout (docs/rules/kiosk.md#the-kiosk-shell).
  const href = usePortalHref();
  const step = store.step;

  useEffect(() => {
    if (step !== null && params.get('step') !== step) navigate(href(kioskCheckInPath(step)), { replace: true });
  }, [step, params, navigate, href]);

  useEffect(() => () => store.dispose(), [store]);

  if (step === null || device.revoked) return <Navigate to={href(paths.kioskHome())} replace />;
  if (!kioskTexts || !selfServiceTexts) return <LoadingOverlay />;
  return (
    <Page title={t('kiosk.title')} className="pp-kiosk">
      {step === 'verify-otp' && <OtpStep store={store} />}
      {step === 'consent' && <ConsentStep store={store} />}
      {step === 'questionnaires' && <QuestionnairesStep store={store} />}
      {step === 'feedback' && <FeedbackStep store={store} />}
      {step === 'confirm' && <ConfirmStep store={store} />}
      {step === 'processing' && <ProcessingStep />}
      {(step === 'success' || step === 'complete') && <DoneStep step={step} store={store} />}
      {step === 'error' && <ErrorStep store={store} />}
    </Page>
  );
});
