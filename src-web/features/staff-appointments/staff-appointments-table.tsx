import Table, { type ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { ReminderAnswer, ReminderChannel, StaffAppointment } from '@contract/api/staff-appointments';
import { Button } from '../../components/button';
import { namedTable } from '../../components/named-table';
import { StatusPill, type StatusTone } from '../../components/status-pill';
import { dateTimeFormat } from '../../platform/dates';
import { useStores } from '../../stores/use-stores';
import { awaitsAnswer, type StaffAppointmentsStore } from './staff-appointments-store';

export const APPOINTMENTS_TABLE_HEADING_ID = 'pp-staff-appointments-table-heading';
const NamedTable = namedTable(APPOINTMENTS_TABLE_HEADING_ID);

/** One literal t() per answer, so the catalogue check sees every key. */
export function answerWords(t: TFunction, answer: ReminderAnswer): string {
  switch (answer) {
    case 'none':
      return t('staffAppointments.answer.none');
    case 'confirmedByEmail':
      return t('staffAppointments.answer.confirmedByEmail');
    case 'confirmedBySms':
      return t('staffAppointments.answer.confirmedBySms');
    case 'confirmedOnPage':
      return t('staffAppointments.answer.confirmedOnPage');
    case 'cancelledByEmail':
      return t('staffAppointments.answer.cancelledByEmail');
    case 'cancelledBySms':
      return t('staffAppointments.answer.cancelledBySms');
    case 'cancelledOnPage':
      return t('staffAppointments.answer.cancelledOnPage');
    case 'cancelledByClinic':
      return t('staffAppointments.answer.cancelledByClinic');
  }
}

function reminderWords(t: TFunction, sent: readonly ReminderChannel[]): string {
  if (sent.length === 0) return t('staffAppointments.reminder.none');
  if (sent.length === 2) return t('staffAppointments.reminder.both');
  return sent[0] === 'sms' ? t('staffAppointments.reminder.sms') : t('staffAppointments.reminder.email');
}

function statusWords(t: TFunction, status: StaffAppointment['status']): string {
  switch (status) {
    case 'BOOKED':
      return t('staffAppointments.status.BOOKED');
    case 'PENDING':
      return t('staffAppointments.status.PENDING');
    case 'CONFIRMED':
      return t('staffAppointments.status.CONFIRMED');
    case 'REQUEST_RESCHEDULE':
      return t('staffAppointments.status.REQUEST_RESCHEDULE');
    case 'ON_HOLD':
      return t('staffAppointments.status.ON_HOLD');
    case 'CHECKED_IN':
      return t('staffAppointments.status.CHECKED_IN');
    case 'CANCELED':
      return t('staffAppointments.status.CANCELED');
    default:
      return t('staffAppointments.status.other', { status });
  }
}

const toneOf = (item: StaffAppointment): StatusTone =>
  !item.live ? 'ended' : item.status === 'CONFIRMED' || item.status === 'CHECKED_IN' ? 'good' : 'live';

const nameOf = (item: StaffAppointment): string => [item.title, item.firstName, item.lastName].filter((part) => part !== '').join(' ');

/** "Send reminder": the reminder again, now, for a patient who did not get it; what went, said beside it. */
const SendReminder = observer(function SendReminder({ store, item }: { store: StaffAppointmentsStore; item: StaffAppointment }) {
  const { t } = useTranslation();
  const sending = store.sending[item.id];
  const said =
    sending === undefined || sending.state === 'sending'
      ? null
      : sending.state === 'failed'
        ? sending.message === ''
          ? t('staffAppointments.remind.failed')
          : sending.message
        : sending.sent.email && sending.sent.sms
          ? t('staffAppointments.remind.sentBoth')
          : sending.sent.email
            ? t('staffAppointments.remind.sentEmail')
            : sending.sent.sms
              ? t('staffAppointments.remind.sentSms')
              : t('staffAppointments.remind.nowhere');
  return (
    <span className="pp-staff-appointments-remind">
      <Button
        variant="secondary"
        className="pp-staff-appointments-remind-button"
        onClick={() => void store.sendReminder(item.id)}
        disabled={sending?.state === 'sending'}
        aria-busy={sending?.state === 'sending'}
      >
        {t('staffAppointments.remind.button')}
        <span className="pp-visually-hidden">{` (${nameOf(item)})`}</span>
      </Button>
      {said !== null && (
        <span role="status" className="pp-staff-queue-minor" data-testid="staff-reminder-sent">
          {said}
        </span>
      )}
    </span>
  );
});

/** The day's appointments: cancelled ones struck through (their time is free), unanswered ones marked for a call. */
export const StaffAppointmentsTable = observer(function StaffAppointmentsTable({ store }: { store: StaffAppointmentsStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  const data = store.data;
  if (data === null) return null;
  const { timeZone } = data.clinic;
  const clock = dateTimeFormat(i18n.locale, { hour: 'numeric', minute: '2-digit', timeZone });
  const when = dateTimeFormat(i18n.locale, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone });

  const columns: ColumnsType<StaffAppointment> = [
    {
      key: 'time',
      title: t('staffAppointments.column.time'),
      render: (_: unknown, item) => (
        <time className="pp-staff-appointments-time" dateTime={item.startsAt}>
          {clock.format(new Date(item.startsAt))}
        </time>
      ),
    },
    {
      key: 'patient',
      title: t('staffAppointments.column.patient'),
      render: (_: unknown, item) => <span className="pp-staff-queue-strong pp-staff-appointments-name">{nameOf(item)}</span>,
    },
    { key: 'exam', title: t('staffAppointments.column.exam'), render: (_: unknown, item) => item.examName },
    {
      key: 'status',
      title: t('staffAppointments.column.status'),
      render: (_: unknown, item) => (
        <StatusPill tone={toneOf(item)} testId="staff-appointment-status">
          {statusWords(t, item.status)}
        </StatusPill>
      ),
    },
    {
      key: 'answer',
      title: t('staffAppointments.column.answer'),
      render: (_: unknown, item) => (
        <>
          <span
            className={awaitsAnswer(item) ? 'pp-staff-queue-open' : 'pp-staff-appointments-answer'}
            data-testid="staff-appointment-answer"
          >
            {answerWords(t, item.answer)}
          </span>
          {item.answeredAt !== null && (
            <time className="pp-staff-queue-minor" dateTime={item.answeredAt}>
              {when.format(new Date(item.answeredAt))}
            </time>
          )}
          <span className="pp-staff-queue-minor">{reminderWords(t, item.reminders)}</span>
          {item.live && item.status !== 'CHECKED_IN' && <SendReminder store={store} item={item} />}
        </>
      ),
    },
    {
      key: 'phone',
      title: t('staffAppointments.column.phone'),
      render: (_: unknown, item) =>
        item.phone === null ? (
          <span className="pp-staff-queue-minor">{t('staffAppointments.noPhone')}</span>
        ) : (
          <a className="pp-staff-queue-phone" href={`tel:${item.phone.replace(/[^\d+]/g, '')}`}>
            {item.phone}
            <span className="pp-visually-hidden">{` (${t('staffAppointments.call', { name: nameOf(item) })})`}</span>
          </a>
        ),
    },
  ];

  return (
    <Table<StaffAppointment>
      className="pp-staff-queue-table pp-staff-appointments-table"
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={store.rows}
      loading={store.loadState === 'loading'}
      components={{ table: NamedTable }}
      rowClassName={(item) =>
        !item.live ? 'pp-staff-appointments-row-cancelled' : awaitsAnswer(item) ? 'pp-staff-appointments-row-awaiting' : ''
      }
      locale={{ emptyText: t('staffAppointments.empty') }}
      pagination={false}
    />
  );
});
