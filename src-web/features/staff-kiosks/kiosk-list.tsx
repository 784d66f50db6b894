import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { Kiosk } from '@contract/api/kiosks';
import { Button } from '../../components/button';
import { useStores } from '../../stores/use-stores';
import { formatKioskTime, formatUptime } from './kiosk-times';
import type { KioskGroup, StaffKiosksStore } from './staff-kiosks-store';

/** The state in words (never only a colour); an enrolled kiosk unheard for too long says so. */
function StateText({ kiosk, silentAfterMinutes }: { kiosk: Kiosk; silentAfterMinutes: number }) {
  const { t } = useTranslation();
  switch (kiosk.state) {
    case 'PENDING':
      return <span className="pp-staff-kiosk-state pp-staff-kiosk-state-pending">{t('staffKiosks.kiosk.statePending')}</span>;
    case 'ENROLLED':
      return kiosk.silent ? (
        <span className="pp-staff-kiosk-state pp-staff-kiosk-state-silent">
          {t('staffKiosks.kiosk.stateSilent', { count: silentAfterMinutes })}
        </span>
      ) : (
        <span className="pp-staff-kiosk-state pp-staff-kiosk-state-enrolled">{t('staffKiosks.kiosk.stateEnrolled')}</span>
      );
    case 'REVOKED':
      return <span className="pp-staff-kiosk-state pp-staff-kiosk-state-revoked">{t('staffKiosks.kiosk.stateRevoked')}</span>;
  }
}

const KioskRow = observer(function KioskRow({ kiosk, group, store }: { kiosk: Kiosk; group: KioskGroup; store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  const hintId = useId();
  const headingId = useId();
  const time = (iso: string | null) =>
    iso === null ? t('staffKiosks.kiosk.never') : formatKioskTime(iso, i18n.locale, group.clinic?.timeZone);
  return (
    <li className="pp-staff-kiosk" aria-labelledby={headingId} data-kiosk-id={kiosk.id}>
      <h4 id={headingId}>{kiosk.name}</h4>
      <dl className="pp-staff-kiosk-facts">
        <div>
          <dt>{t('staffKiosks.kiosk.state')}</dt>
          <dd>
            <StateText kiosk={kiosk} silentAfterMinutes={store.silentAfterMinutes} />
          </dd>
        </div>
        <div>
          <dt>{t('staffKiosks.kiosk.enrolledAt')}</dt>
          <dd>{time(kiosk.enrolledAt)}</dd>
        </div>
        <div>
          <dt>{t('staffKiosks.kiosk.lastSeen')}</dt>
          <dd>{time(kiosk.lastSeenAt)}</dd>
        </div>
        {kiosk.health !== null && (
          <>
            <div>
              <dt>{t('staffKiosks.kiosk.appVersion')}</dt>
              <dd>{kiosk.health.appVersion}</dd>
            </div>
            <div>
              <dt>{t('staffKiosks.kiosk.uptime')}</dt>
              <dd>{formatUptime(kiosk.health.uptimeSeconds, i18n.locale)}</dd>
            </div>
            <div>
              <dt>{t('staffKiosks.kiosk.lastCrash')}</dt>
              <dd>
                {kiosk.health.lastCrash === null
                  ? t('staffKiosks.kiosk.none')
                  : t('staffKiosks.kiosk.crashAt', { time: time(kiosk.health.lastCrash.at), reason: kiosk.health.lastCrash.reason })}
              </dd>
            </div>
            <div>
              <dt>{t('staffKiosks.kiosk.lastPatientActivity')}</dt>
              <dd>{time(kiosk.health.lastPatientActivityAt)}</dd>
            </div>
            <div>
              <dt>{t('staffKiosks.kiosk.lastOffline')}</dt>
              <dd>{time(kiosk.health.lastOfflineAt)}</dd>
            </div>
          </>
        )}
      </dl>
      <p id={hintId} className="pp-field-hint">
        {kiosk.state === 'ENROLLED' ? t('staffKiosks.kiosk.newCodeHintEnrolled') : t('staffKiosks.kiosk.newCodeHint')}
      </p>
      <div className="pp-actions">
        <Button
          variant="secondary"
          disabled={store.busy}
          aria-label={t('staffKiosks.kiosk.newCodeFor', { name: kiosk.name })}
          aria-describedby={hintId}
          onClick={() => void store.newCode(kiosk)}
        >
          {t('staffKiosks.kiosk.newCode')}
        </Button>
        {kiosk.state !== 'REVOKED' && (
          <Button
            variant="danger"
            disabled={store.busy}
            aria-label={t('staffKiosks.kiosk.revokeFor', { name: kiosk.name })}
            onClick={() => store.askRevoke(kiosk)}
          >
            {t('staffKiosks.kiosk.revoke')}
          </Button>
        )}
      </div>
    </li>
  );
});

/** The kiosks by clinic, "No clinic" last. */
export const KioskList = observer(function KioskList({ store }: { store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const groups = store.groups;
  return (
    <section aria-labelledby="pp-staff-kiosk-list-heading">
      <h2 id="pp-staff-kiosk-list-heading">{t('staffKiosks.list.heading')}</h2>
      {groups.length === 0 && <p>{t('staffKiosks.list.empty')}</p>}
      {groups.map((group) => (
        <section key={group.key} className="pp-staff-kiosk-group" aria-labelledby={`pp-staff-kiosk-group-${group.key || 'none'}`}>
          <h3 id={`pp-staff-kiosk-group-${group.key || 'none'}`}>
            {group.clinicName ?? t('staffKiosks.list.noClinic')}{' '}
            <span className="pp-staff-kiosk-count">{t('staffKiosks.list.count', { count: group.kiosks.length })}</span>
          </h3>
          <ul className="pp-staff-kiosks">
            {group.kiosks.map((kiosk) => (
              <KioskRow key={kiosk.id} kiosk={kiosk} group={group} store={store} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
});
