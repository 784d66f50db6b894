import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../paths';
import { useEmbedded, usePortalHref } from '../../shell/embedded';
import { Page } from '../../components/page';
import { PortalLink } from '../../components/portal-link';
import { isExternalUrl } from '../../platform/safe-url';
import { useStores } from '../../stores/use-stores';
import { denyActions, denyMessage, readDenyQuery, trustedOriginsOf, type DenyMessage } from './deny-message';
import { Button, buttonClassName } from '../../components/button';

/** One literal t() per message, so the catalogue check sees every key the page can show. */
function denyText(t: TFunction, message: DenyMessage): string {
  switch (message.key) {
    case 'deny.expired':
      return t('deny.expired');
    case 'deny.canceled':
      return t('deny.canceled');
    case 'deny.declined':
      return t('deny.declined');
    case 'deny.removedByOperator':
      return t('deny.removedByOperator');
    case 'deny.waitingForProtocol':
      return t('deny.waitingForProtocol');
    case 'deny.restricted':
      return t('deny.restricted');
    case 'deny.revoked':
      return t('deny.revoked');
    case 'deny.resultsExpired':
      return t('deny.resultsExpired');
    case 'deny.custom':
      return t('deny.custom', { text: message.text ?? '' });
    case 'deny.generic':
      return t('deny.generic');
    case 'message.max_attempts_reached':
      return t('message.max_attempts_reached');
    case 'message.max_attempts_reached_shared':
      return t('message.max_attempts_reached_shared');
    case 'message.max_attempts_reached_results':
      return t('message.max_attempts_reached_results');
    case 'message.pain_score_problem':
      return t('message.pain_score_problem');
    case 'message.booking_request_waiting_protocol_error':
      return t('message.booking_request_waiting_protocol_error');
  }
}

/** /deny: why the patient cannot go on (docs/rules/patient-access.md#deny-page), with an optional close control and onward link. */
export function DenyPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const embedded = useEmbedded();
  const href = usePortalHref();
  const query = readDenyQuery(params);
  const message = denyMessage(query);
  const { config } = useStores();
  const { navigation } = config.app;
  const { aboutUrl, contactUrl, termsAndConditionsUrl, privacyPolicyUrl } = config.radiology;
  const trustedOrigins = trustedOriginsOf(
    [...Object.values(navigation), aboutUrl, contactUrl, termsAndConditionsUrl, privacyPolicyUrl],
    window.location.origin,
  );
  const { showClose, redirectUrl } = denyActions(query, trustedOrigins);

  const close = () => {
    // A page opened as a popup (questionnaire, viewer) closes; otherwise go home.
    if (window.opener && !embedded) window.close();
    else navigate(href(paths.home()));
  };

  return (
    // A booking held for a radiographer's review is not refused: its heading says it waits.
    <Page title={message.key === 'deny.waitingForProtocol' ? t('deny.waitingTitle') : t('deny.title')} className="pp-deny">
      <p className="pp-deny-message" data-message={message.key}>
        {denyText(t, message)}
      </p>
      {message.key === 'deny.waitingForProtocol' && (
        // Held, not refused: the patient may still change their mind, by talking to the clinic.
        <p className="pp-deny-follow-up">
          {t('deny.waitingMeanwhile')} <PortalLink href={href(paths.contact())}>{t('deny.waitingContact')}</PortalLink>
        </p>
      )}
      {(showClose || redirectUrl) && (
        <div className="pp-actions">
          {redirectUrl && (
            <PortalLink
              href={isExternalUrl(redirectUrl) ? redirectUrl : href(redirectUrl)}
              className={buttonClassName({ variant: 'primary' })}
            >
              {t('deny.continue')}
            </PortalLink>
          )}
          {showClose && (
            <Button variant="secondary" onClick={close}>
              {t('action.close')}
            </Button>
          )}
        </div>
      )}
    </Page>
  );
}
