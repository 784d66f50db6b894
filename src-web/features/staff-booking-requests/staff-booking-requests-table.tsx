import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { PreferredTime } from '@contract/api/booking';
import type { StaffBookingRequest } from '@contract/api/staff-booking-requests';
import { QueueDoneStatus, QueueOpenStatus, queueTime, StaffQueueTable } from '../../components/staff-queue-table';
import { formatCalendarDate } from '../../platform/dates';
import { useStores } from '../../stores/use-stores';
import type { StaffBookingRequestsStore } from './staff-booking-requests-store';

export const BOOKING_REQUESTS_TABLE_HEADING_ID = 'pp-staff-booking-requests-table-heading';

/** An e-mail that wraps after its @ and before its dots when the column is narrow, never mid-word first. */
function BreakableEmail({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  const local = at === -1 ? email : email.slice(0, at + 1);
  const domain = at === -1 ? [] : email.slice(at + 1).split('.');
  return (
    <span className="pp-staff-queue-email">
      {local}
      {domain.map((part, index) => (
        <span key={index}>
          <wbr />
          {index === 0 ? part : `.${part}`}
        </span>
      ))}
    </span>
  );
}

function Patient({ item, t, locale }: { item: StaffBookingRequest; t: TFunction; locale: string }) {
  const { patient } = item;
  return (
    <>
      <span className="pp-staff-queue-strong">{patient.name}</span>
      <span className="pp-staff-queue-minor">
        {t('staffBookingRequests.dateOfBirth', { date: formatCalendarDate(patient.dateOfBirth, locale) })}
      </span>
      {patient.phone !== null && (
        <a className="pp-staff-queue-phone" href={`tel:${patient.phone}`}>
          {patient.phone}
        </a>
      )}
      {patient.email !== null && <BreakableEmail email={patient.email} />}
      {patient.postcode !== null && (
        <span className="pp-staff-queue-minor">{t('staffBookingRequests.postcode', { postcode: patient.postcode })}</span>
      )}
    </>
  );
}

/** One literal t() per time, so the catalogue check sees every key. */
function timeWords(t: TFunction, time: PreferredTime): string {
  switch (time) {
    case 'weekdayMorning':
      return t('staffBookingRequests.time.weekdayMorning');
    case 'weekdayAfternoon':
      return t('staffBookingRequests.time.weekdayAfternoon');
    case 'saturdayMorning':
      return t('staffBookingRequests.time.saturdayMorning');
    case 'anyTime':
      return t('staffBookingRequests.time.anyTime');
  }
}

function Exams({ item, t }: { item: StaffBookingRequest; t: TFunction }) {
  return (
    <>
      <ul className="pp-staff-queue-list">
        {item.exams.map((exam) => (
          <li key={exam}>{exam}</li>
        ))}
      </ul>
      <span className="pp-staff-queue-minor">{item.clinicName ?? t('staffBookingRequests.anyClinic')}</span>
      {item.channel === 'chat' && <span className="pp-staff-queue-minor">{t('staffBookingRequests.channelChat')}</span>}
      {item.preferredTimes.length > 0 && (
        <span className="pp-staff-queue-words">
          {t('staffBookingRequests.preferredTimes', { times: item.preferredTimes.map((time) => timeWords(t, time)).join(', ') })}
        </span>
      )}
      {item.screeningByPhone && (
        <span className="pp-staff-queue-words pp-staff-queue-open">{t('staffBookingRequests.screeningByPhone')}</span>
      )}
      {item.patientNotes.trim() !== '' && (
        <span className="pp-staff-queue-words pp-staff-queue-note">{t('staffBookingRequests.notes', { notes: item.patientNotes })}</span>
      )}
    </>
  );
}

/** The payment, background and referral answers (docs/rules/booking.md#booking-form-details) and the referral files. */
function Details({ item, t }: { item: StaffBookingRequest; t: TFunction }) {
  const details = item.formDetails;
  const insurance = details?.insurance ?? null;
  return (
    <>
      {details === null ? (
        <span className="pp-staff-queue-minor">{t('staffBookingRequests.noDetails')}</span>
      ) : (
        <ul className="pp-staff-queue-list">
          {insurance !== null && (
            <li>
              {t('staffBookingRequests.insurance', { label: insurance.label })}
              {insurance.fundName !== null && ` · ${t('staffBookingRequests.fundName', { name: insurance.fundName })}`}
              {insurance.memberNumber !== null && ` · ${t('staffBookingRequests.memberNumber', { number: insurance.memberNumber })}`}
            </li>
          )}
          {details.ethnicity !== null && <li>{t('staffBookingRequests.ethnicity', { label: details.ethnicity.label })}</li>}
          {details.referringPractice !== null && (
            <li>
              {t('staffBookingRequests.practice', {
                name: [details.referringPractice.name, details.referringPractice.suburb].filter(Boolean).join(', '),
              })}
            </li>
          )}
        </ul>
      )}
      {item.referrals.length === 0 ? (
        <span className="pp-staff-queue-minor">{t('staffBookingRequests.noReferral')}</span>
      ) : (
        <ul className="pp-staff-queue-list">
          {item.referrals.map((referral) => (
            <li key={referral.downloadUrl}>
              <a href={referral.downloadUrl} download={referral.fileName}>
                {t('staffBookingRequests.referrals')}: {referral.fileName}
              </a>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Status({ item, store, t, locale }: { item: StaffBookingRequest; store: StaffBookingRequestsStore; t: TFunction; locale: string }) {
  if (item.status === 'open') {
    return (
      <QueueOpenStatus
        label={t('staffBookingRequests.status.open')}
        markLabel={t('staffBookingRequests.mark.button')}
        name={item.patient.name}
        onMark={() => store.openMark(item)}
      >
        {item.withChatService && <span className="pp-staff-queue-minor">{t('staffBookingRequests.withChatService')}</span>}
      </QueueOpenStatus>
    );
  }
  if (item.status === 'cancelled') return <span className="pp-staff-queue-strong">{t('staffBookingRequests.status.cancelled')}</span>;
  return (
    <QueueDoneStatus
      label={t('staffBookingRequests.status.handled')}
      at={item.handledAt}
      by={item.handledBy}
      byText={(when, who) => t('staffBookingRequests.handledBy', { when, who })}
      note={item.note}
      locale={locale}
    />
  );
}

/** The requests as the server orders them: open ones oldest first, then the latest handled or cancelled. */
export const StaffBookingRequestsTable = observer(function StaffBookingRequestsTable({ store }: { store: StaffBookingRequestsStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  if (store.data === null) return null;
  const locale = i18n.locale;

  const columns: ColumnsType<StaffBookingRequest> = [
    {
      key: 'patient',
      title: t('staffBookingRequests.column.patient'),
      render: (_: unknown, item) => <Patient item={item} t={t} locale={locale} />,
    },
    { key: 'exams', title: t('staffBookingRequests.column.exams'), render: (_: unknown, item) => <Exams item={item} t={t} /> },
    { key: 'details', title: t('staffBookingRequests.column.details'), render: (_: unknown, item) => <Details item={item} t={t} /> },
    {
      key: 'received',
      title: t('staffBookingRequests.column.received'),
      render: (_: unknown, item) => <time dateTime={item.receivedAt}>{queueTime(item.receivedAt, locale)}</time>,
    },
    {
      key: 'status',
      title: t('staffBookingRequests.column.status'),
      render: (_: unknown, item) => <Status item={item} store={store} t={t} locale={locale} />,
    },
  ];

  return (
    <StaffQueueTable<StaffBookingRequest>
      store={store}
      columns={columns}
      rowKey="bookingKey"
      headingId={BOOKING_REQUESTS_TABLE_HEADING_ID}
      emptyText={t('staffBookingRequests.empty')}
    />
  );
});
