import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { loadSelfServiceTexts, useSelfServiceTexts } from '../../i18n/self-service-texts';
import type { AppointmentDialog, RescheduleContext } from '../appointments/public';
import { appointmentStoreOf } from '../appointments/public';
import { formatStartTime } from './booking-calendar';
import type { RootStore } from '../../stores/root-store';
import { useStores } from '../../stores/use-stores';
import { Button } from '../../components/button';

/**
 * Loads the booking being moved as soon as the flow opens with ?reschedule= (booking-page.tsx):
 * a patient whose session ended signs in again before choosing a time, not after.
 */
export function prepareReschedule(root: RootStore, bookingKey: string): void {
  void root.featureStore(appointmentStoreOf).ensureSummary(bookingKey);
  void loadSelfServiceTexts(root.i18n.i18n, root.i18n.locale).catch(() => undefined);
}

/** Why the move was refused or failed (docs/rules/appointments.md#cut-off), one literal key each. */
function problemText(t: TFunction, dialog: AppointmentDialog): string | null {
  if (dialog.kind === 'error') return dialog.message || t('booking.reschedule.failed');
  if (dialog.kind !== 'rescheduleNotAllowed') return null;
  switch (dialog.reason) {
    case 'WALK_IN':
      return t('message.reschedule_walk_in');
    case 'APPOINTMENT_CANCELLED':
      return t('message.reschedule_cancelled_appts');
    case 'PRIOR_MINUTES':
      return t('message.reschedule_prior_minutes', { count: Math.round((dialog.priorMinutes / 60) * 10) / 10 });
    case 'OTHER':
      return t('message.reschedule_not_allowed_message');
  }
}

/**
 * The booking flow's last step when an existing appointment is moved (docs/rules/appointments.md#reschedule): what changes,
 * and "Move my appointment", which moves it in one server transaction (the old time is freed only
 * when the new one is booked), then returns to the appointment page showing the new time.
 */
export const RescheduleStep = observer(function RescheduleStep({
  bookingKey,
  context,
}: {
  bookingKey: string;
  context: RescheduleContext;
}) {
  const root = useStores();
  const { booking } = root;
  const appointments = root.featureStore(appointmentStoreOf);
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const textsReady = useSelfServiceTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void appointments.ensureSummary(bookingKey);
  }, [appointments, bookingKey]);

  const clinic = booking.placeAndTime.selectedClinic?.clinic;
  const startsAt = booking.placeAndTime.selectedStartsAt;
  const current = appointments.summary?.bookingKey === bookingKey ? appointments.summary : null;
  const problem = appointments.dialog ? problemText(t, appointments.dialog) : null;

  const move = async () => {
    if (!clinic || !startsAt || appointments.busy) return;
    // Our own hold on the new time: the server turns it into the moved appointment in one step.
    const hold = booking.placeAndTime.hold;
    // A reschedule keeps the exams; a patient who went back and chose others is changing it.
    const original = current ? [...new Set(current.appointments.map((appointment) => appointment.examSlug))] : null;
    const moveContext =
      context === 'CHANGED' || (original !== null && original.join(',') !== booking.examChoice.bookedSlugs.join(','))
        ? 'CHANGED'
        : 'RESCHEDULED';
    const outcome = await appointments.rescheduling.reschedule(bookingKey, {
      context: moveContext,
      clinicSlug: clinic.slug,
      startsAt,
      ...(moveContext === 'CHANGED' ? { exams: booking.examChoice.bookedSlugs } : {}),
      // The new exams' screening answers, given in this flow, go with the change.
      ...(moveContext === 'CHANGED' && booking.examChoice.questionnaireKey
        ? { questionnaireKey: booking.examChoice.questionnaireKey }
        : {}),
      ...(hold ? { holdId: hold.holdId } : {}),
    });
    if (outcome === 'done') {
      booking.placeAndTime.forgetHold();
      booking.startOver();
      navigate(appointments.rescheduling.appointmentUrl(bookingKey));
    } else if (outcome === 'slot_taken') {
      await booking.timeWasTaken();
    }
  };

  if (!textsReady) return <p role="status">{t('message.loading')}</p>;

  return (
    <div className="pp-details-step">
      <dl className="pp-details">
        <div>
          <dt>{t('booking.reschedule.exams')}</dt>
          <dd>{booking.examChoice.selectedExams.map((exam) => exam.name).join(', ')}</dd>
        </div>
        {current && current.appointments[0] && (
          <div>
            <dt>{t('booking.reschedule.from')}</dt>
            <dd>
              {current.clinic.name}, {formatStartTime(current.appointments[0].startsAt, i18n.language, current.clinic.timeZone, true)}
            </dd>
          </div>
        )}
        {clinic && startsAt && (
          <div>
            <dt>{t('booking.reschedule.to')}</dt>
            <dd data-testid="reschedule-new-time">
              {clinic.name}, {formatStartTime(startsAt, i18n.language, clinic.timeZone, true)}
            </dd>
          </div>
        )}
      </dl>
      <p>{t('booking.reschedule.explain')}</p>
      {problem && (
        <div role="alert" className="pp-notice pp-notice-error">
          <p>{problem}</p>
        </div>
      )}
      <div className="pp-actions">
        <Button variant="secondary" onClick={() => booking.goBack()}>
          {t('booking.actions.back')}
        </Button>
        <Button disabled={appointments.busy || !clinic || !startsAt} onClick={() => void move()}>
          {appointments.busy ? t('booking.reschedule.moving') : t('booking.reschedule.submit')}
        </Button>
      </div>
    </div>
  );
});
