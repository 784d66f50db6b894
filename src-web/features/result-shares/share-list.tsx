import { observer } from 'mobx-react-lite';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShareRecord } from '@contract/api/result-shares';
import { Button } from '../../components/button';
import type { ShareDialogStore } from './share-dialog-store';
import { formatShareTime } from './share-times';

/** Every key literal, so the catalogue check sees each. */
function useShareLabels() {
  const { t } = useTranslation();
  return {
    type: (share: ShareRecord) => (share.type === 'HISTORY' ? t('resultSharing.list.typeHISTORY') : t('resultSharing.list.typeRESULT')),
    via: (share: ShareRecord) =>
      share.contactDetailsType === 'PHONE' ? t('resultSharing.list.viaPHONE') : t('resultSharing.list.viaEMAIL'),
  };
}

/** Who opened the share when: "Opened 2 times, last on …", the dates behind it (newest first, then how many earlier). */
function AccessLog({ share }: { share: ShareRecord }) {
  const { t, i18n } = useTranslation();
  const [last] = share.accesses;
  if (last === undefined) return <p className="pp-share-muted">{t('resultSharing.list.neverOpened')}</p>;
  // The server lists the newest openings only; the count covers them all.
  const earlier = share.accessCount - share.accesses.length;
  return (
    <details className="pp-share-accesses">
      <summary>
        {t('resultSharing.list.opened', { count: share.accessCount, date: formatShareTime(last.openedAtUTC, i18n.language) })}
      </summary>
      <ul>
        {share.accesses.map((access, index) => (
          <li key={`${access.openedAtUTC}-${index}`}>
            {t('resultSharing.list.openedOn', { date: formatShareTime(access.openedAtUTC, i18n.language) })}
          </li>
        ))}
        {earlier > 0 && <li>{t('resultSharing.list.earlierOpenings', { count: earlier })}</li>}
      </ul>
    </details>
  );
}

/**
 * Revoke, then the yes/no question in its place. Focus follows: to No when asked (the answer that
 * changes nothing), back to Revoke on No, and to "Revoked on …" once done.
 */
const RevokeControl = observer(function RevokeControl({
  store,
  share,
  contact,
}: {
  store: ShareDialogStore;
  share: ShareRecord;
  contact: string;
}) {
  const { t, i18n } = useTranslation();
  const asking = store.confirmingRevokeId === share.id;
  const box = useRef<HTMLDivElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    const focus = (selector: string) => box.current?.querySelector<HTMLElement>(selector)?.focus();
    if (asking) focus('[data-revoke="no"]');
    else if (wasAsking.current) focus(share.dateRevoked !== null ? '[data-revoke="done"]' : '[data-revoke="ask"]');
    wasAsking.current = asking;
  }, [asking, share.dateRevoked]);

  const questionId = `pp-share-revoke-${share.id}`;
  let control: ReactNode = null;
  if (share.dateRevoked !== null) {
    control = (
      <p data-revoke="done" tabIndex={-1} className="pp-share-revoked">
        {t('resultSharing.list.revoked', { date: formatShareTime(share.dateRevoked, i18n.language) })}
      </p>
    );
  } else if (store.expired(share)) {
    control = null;
  } else if (!asking) {
    control = (
      <Button
        data-revoke="ask"
        variant="secondary"
        className="pp-share-revoke"
        aria-label={t('resultSharing.list.revokeLabel', { contact })}
        onClick={() => store.askRevoke(share.id)}
      >
        {t('resultSharing.list.revoke')}
      </Button>
    );
  } else {
    control = (
      <div role="group" aria-labelledby={questionId} className="pp-share-confirm">
        <p id={questionId}>{t('resultSharing.list.revokeQuestion', { contact })}</p>
        <div className="pp-share-confirm-actions">
          <Button variant="danger" disabled={store.revokingId !== null} onClick={() => void store.confirmRevoke()}>
            {t('resultSharing.list.revokeYes')}
          </Button>
          <Button data-revoke="no" variant="secondary" disabled={store.revokingId !== null} onClick={() => store.cancelRevoke()}>
            {t('resultSharing.list.revokeNo')}
          </Button>
        </div>
      </div>
    );
  }
  return <div ref={box}>{control}</div>;
});

const ShareRow = observer(function ShareRow({ store, share }: { store: ShareDialogStore; share: ShareRecord }) {
  const { t, i18n } = useTranslation();
  const labels = useShareLabels();
  const contact = share.contactName ?? share.contactDetails;
  const expired = store.expired(share);
  return (
    <li className="pp-share-row">
      <p className="pp-share-contact">
        <strong>{contact}</strong>
        {share.contactName !== null && <span className="pp-share-details">{share.contactDetails}</span>}
      </p>
      <p className="pp-share-muted">
        {labels.type(share)} · {labels.via(share)}
      </p>
      <p className="pp-share-muted">
        {t('resultSharing.list.created', { date: formatShareTime(share.dateCreatedUTC, i18n.language) })}
        {share.dateRevoked === null && (
          <>
            {' · '}
            {expired
              ? t('resultSharing.list.expired', { date: formatShareTime(share.expiresAtUTC, i18n.language) })
              : t('resultSharing.list.expires', { date: formatShareTime(share.expiresAtUTC, i18n.language) })}
          </>
        )}
      </p>
      <AccessLog share={share} />
      <RevokeControl store={store} share={share} contact={contact} />
      {store.revokeFailedId === share.id && (
        <p role="alert" className="pp-share-error">
          {t('resultSharing.errors.revoke')}
        </p>
      )}
    </li>
  );
});

/**
 * The patient's shares, newest first: whom, how, when shared and until when, revoked or a Revoke
 * button, and the access log. Above 450 px it scrolls; a scrolling region is
 * focusable so the keyboard can scroll it too.
 */
export const ShareList = observer(function ShareList({ store }: { store: ShareDialogStore }) {
  const { t } = useTranslation();
  const shares = store.shares;
  return (
    <section className="pp-share-list-section" aria-labelledby="pp-share-list-heading">
      <h3 id="pp-share-list-heading">{t('resultSharing.list.heading')}</h3>
      {shares.length === 0 ? (
        <p className="pp-share-muted">{t('resultSharing.list.empty')}</p>
      ) : (
        <div className="pp-share-list-scroll" role="region" aria-label={t('resultSharing.list.label')} tabIndex={0}>
          <ul className="pp-share-list">
            {shares.map((share) => (
              <ShareRow key={share.id} store={store} share={share} />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
});
