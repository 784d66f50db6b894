import Table, { type ColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { Suspense, useId, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import type { Kiosk } from '@contract/api/kiosks';
import { AntdScope } from '../../components/antd-scope';
import { Button } from '../../components/button';
import { PageLoadState } from '../../components/page-load-state';
import { useStores } from '../../stores/use-stores';
import { CopyCode } from './copy-code';
import { formatKioskTime, formatUptime } from './kiosk-times';
import type { KioskGroup, StaffKiosksStore } from './staff-kiosks-store';
import { namedTable } from '../../components/named-table';

const LIST_HEADING_ID = 'pp-staff-kiosk-list-heading';

const NamedTable = namedTable(LIST_HEADING_ID);

/** A kiosk with what its row needs: its clinic's group (name and zone). */
interface KioskRow {
  kiosk: Kiosk;
  group: KioskGroup;
}

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

/** The state, the code just issued for this kiosk (with its copy button), and what the kiosk app last reported. */
const StatusCell = observer(function StatusCell({ row, store }: { row: KioskRow; store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  const { kiosk, group } = row;
  const time = (iso: string | null) =>
    iso === null ? t('staffKiosks.kiosk.never') : formatKioskTime(iso, i18n.locale, group.clinic?.timeZone);
  const issued = store.issued?.kiosk.id === kiosk.id ? store.issued : null;
  return (
    <>
      <StateText kiosk={kiosk} silentAfterMinutes={store.silentAfterMinutes} />
      {issued !== null && (
        <p className="pp-staff-kiosk-row-code">
          <span>{t('staffKiosks.code.label')}:</span> <code>{issued.code}</code>{' '}
          <CopyCode code={issued.code} label={t('staffKiosks.code.copyFor', { name: kiosk.name })} />
        </p>
      )}
      <dl className="pp-staff-kiosk-facts">
        {kiosk.enrolledAt !== null && (
          <div>
            <dt>{t('staffKiosks.kiosk.enrolledAt')}</dt>
            <dd>{time(kiosk.enrolledAt)}</dd>
          </div>
        )}
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
    </>
  );
});

const Actions = observer(function Actions({ kiosk, store }: { kiosk: Kiosk; store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const hintId = useId();
  return (
    <div className="pp-staff-kiosk-actions">
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
      <p id={hintId} className="pp-field-hint">
        {kiosk.state === 'ENROLLED' ? t('staffKiosks.kiosk.newCodeHintEnrolled') : t('staffKiosks.kiosk.newCodeHint')}
      </p>
    </div>
  );
});

/** The kiosks as one table, by clinic ("No clinic" last) then name: name, clinic, status, last seen, actions. */
const KioskTable = observer(function KioskTable({ store }: { store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  const rows: KioskRow[] = store.groups.flatMap((group) => group.kiosks.map((kiosk) => ({ kiosk, group })));
  const columns: ColumnsType<KioskRow> = [
    {
      key: 'name',
      title: t('staffKiosks.list.name'),
      render: (_: unknown, row) => <span className="pp-staff-kiosk-name">{row.kiosk.name}</span>,
    },
    {
      key: 'clinic',
      title: t('staffKiosks.list.clinic'),
      render: (_: unknown, row) => row.group.clinicName ?? t('staffKiosks.list.noClinic'),
    },
    { key: 'status', title: t('staffKiosks.kiosk.state'), render: (_: unknown, row) => <StatusCell row={row} store={store} /> },
    {
      key: 'lastSeen',
      title: t('staffKiosks.kiosk.lastSeen'),
      render: (_: unknown, row) =>
        row.kiosk.lastSeenAt === null
          ? t('staffKiosks.kiosk.never')
          : formatKioskTime(row.kiosk.lastSeenAt, i18n.locale, row.group.clinic?.timeZone),
    },
    { key: 'actions', title: t('staffKiosks.list.actions'), render: (_: unknown, row) => <Actions kiosk={row.kiosk} store={store} /> },
  ];
  return (
    <Table<KioskRow>
      className="pp-staff-kiosk-table"
      rowKey={(row) => row.kiosk.id}
      onRow={(row) => ({ 'data-kiosk-id': row.kiosk.id }) as ComponentProps<'tr'>}
      columns={columns}
      dataSource={rows}
      pagination={false}
      components={{ table: NamedTable }}
      locale={{ emptyText: t('staffKiosks.list.empty') }}
    />
  );
});

/** The kiosks (docs/rules/kiosk.md#enrollment) as an antd Table, lazy with antd's theme. */
export const KioskList = observer(function KioskList({ store }: { store: StaffKiosksStore }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={LIST_HEADING_ID}>
      <h2 id={LIST_HEADING_ID}>
        {t('staffKiosks.list.heading')}{' '}
        <span className="pp-staff-kiosk-count">{t('staffKiosks.list.count', { count: store.kiosks.length })}</span>
      </h2>
      <Suspense fallback={<PageLoadState failed={false} errorText="" retryText="" onRetry={() => undefined} />}>
        <AntdScope>
          <KioskTable store={store} />
        </AntdScope>
      </Suspense>
    </section>
  );
});
