import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { Slot } from '@contract/api/booking';
import { dayLabel, formatInstant } from './booking-calendar';
import { moveAcrossToolbar, toolbarTabStop } from './calendar-parts';
import { useStores } from '../../stores/use-stores';

/** Hours and minutes in the locale's own habit: "8:30 am" in en-AU, "08:30" in mk. */
export const TIME_OF_DAY: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** A day's free times as buttons, each in the clinic's zone and the locale's time format. */
export const SlotButtons = observer(function SlotButtons({ date, slots }: { date: string; slots: Slot[] }) {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  const timeZone = booking.placeAndTime.selectedClinic?.clinic.timeZone;
  const tabStop = toolbarTabStop(
    slots,
    (slot) => booking.placeAndTime.selectedStartsAt === slot.startsAt,
    () => true,
  );
  return (
    // The toolbar wraps the list: a list keeps its items' semantics (role=toolbar on the ul would not).
    <div role="toolbar" aria-label={t('booking.calendar.times', { day: dayLabel(date, i18n.language) })} onKeyDown={moveAcrossToolbar}>
      <ul className="pp-slots">
        {slots.map((slot) => {
          // The same format as every other time on the page (the hold, the clinic's next time, the confirmation).
          const time = timeZone ? formatInstant(slot.startsAt, i18n.language, timeZone, TIME_OF_DAY) : slot.localTime;
          return (
            <li key={slot.startsAt}>
              <button
                type="button"
                className="pp-slot"
                aria-pressed={booking.placeAndTime.selectedStartsAt === slot.startsAt}
                tabIndex={slot === tabStop ? 0 : -1}
                aria-label={t('booking.calendar.time', { day: dayLabel(date, i18n.language), time })}
                onClick={() => void booking.placeAndTime.pickTime(date, slot)}
              >
                {time}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
});

/** "<when> is held for you until <time>", announced as it changes. */
export const HoldStatus = observer(function HoldStatus() {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  const clinic = booking.placeAndTime.selectedClinic?.clinic;
  let text = '';
  if (booking.placeAndTime.holdState === 'loading') text = t('booking.calendar.holding');
  if (booking.placeAndTime.hold && clinic) {
    const options = { weekday: 'long', day: 'numeric', month: 'long', ...TIME_OF_DAY } as const;
    text = t('booking.calendar.held', {
      when: formatInstant(booking.placeAndTime.hold.startsAt, i18n.language, clinic.timeZone, options),
      until: formatInstant(booking.placeAndTime.hold.expiresAt, i18n.language, clinic.timeZone, TIME_OF_DAY),
    });
  }
  return (
    <p role="status" className="pp-hold-status">
      {text}
    </p>
  );
});
