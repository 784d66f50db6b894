import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Slot } from '@contract/api/booking';
import { addDays, dayLabel, formatDate, formatInstant, monthGrid } from './booking-calendar';
import { useStores } from '../../stores/use-stores';
import { Button } from '../../components/button';

/** A known Sunday, to name the weekdays in the locale's order. */
const A_SUNDAY = '2024-01-07';

/** The free times of the chosen clinic in a WEEK or MONTH view (toggling resets date and time). */
export const CalendarView = observer(function CalendarView() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const headingId = useId();
  const clinic = booking.placeAndTime.selectedClinic;
  if (!clinic) return null;
  return (
    <section className="pp-calendar" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('booking.calendar.title', { name: clinic.clinic.name })}</h3>
      <div className="pp-chips" role="group" aria-label={t('booking.calendar.view')}>
        <button
          type="button"
          className="pp-chip"
          aria-pressed={booking.placeAndTime.view === 'WEEK'}
          onClick={() => void booking.placeAndTime.setView('WEEK')}
        >
          {t('booking.calendar.week')}
        </button>
        <button
          type="button"
          className="pp-chip"
          aria-pressed={booking.placeAndTime.view === 'MONTH'}
          onClick={() => void booking.placeAndTime.setView('MONTH')}
        >
          {t('booking.calendar.month')}
        </button>
      </div>
      {booking.placeAndTime.slotTaken && (
        <p role="alert" className="pp-notice pp-notice-error">
          {t('booking.calendar.slotTaken')}
        </p>
      )}
      {booking.placeAndTime.view === 'WEEK' ? <WeekView /> : <MonthView />}
      <HoldStatus />
    </section>
  );
});

interface CalendarStep {
  text: string;
  enabled: boolean;
  go: () => void;
}

/** Previous / range / next bar shared by the week and month views; the range is announced when it changes. */
function CalendarNav({ label, previous, next }: { label: string; previous: CalendarStep; next: CalendarStep }) {
  return (
    <div className="pp-calendar-nav">
      <Button variant="secondary" disabled={!previous.enabled} onClick={previous.go}>
        {previous.text}
      </Button>
      <p aria-live="polite" className="pp-calendar-range">
        {label}
      </p>
      <Button variant="secondary" disabled={!next.enabled} onClick={next.go}>
        {next.text}
      </Button>
    </div>
  );
}

function LoadStatus({ state }: { state: string }) {
  const { t } = useTranslation();
  if (state === 'loading') return <p role="status">{t('booking.calendar.loading')}</p>;
  if (state === 'error') return <p role="alert">{t('booking.calendar.loadError')}</p>;
  return null;
}

const WeekView = observer(function WeekView() {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  const days = booking.placeAndTime.weekDays;
  const first = days[0] ?? booking.placeAndTime.weekFrom;
  const last = days[days.length - 1] ?? first;
  const range = `${dayLabel(first, i18n.language)} – ${dayLabel(last, i18n.language)}`;
  const selectedDay = booking.placeAndTime.selectedDay;
  return (
    <div>
      <CalendarNav
        label={range}
        previous={{
          text: t('booking.calendar.previousWeek'),
          enabled: booking.placeAndTime.canGoToPreviousWeek,
          go: () => void booking.placeAndTime.moveWeek(-1),
        }}
        next={{
          text: t('booking.calendar.nextWeek'),
          enabled: booking.placeAndTime.canGoToNextWeek,
          go: () => void booking.placeAndTime.moveWeek(1),
        }}
      />
      <LoadStatus state={booking.placeAndTime.daysState} />
      {booking.placeAndTime.daysState === 'loaded' && (
        <>
          <div className="pp-day-strip" role="group" aria-label={t('booking.calendar.days')}>
            {days.map((date) => {
              const free = booking.placeAndTime.days.find((candidate) => candidate.date === date)?.slots.length ?? 0;
              return (
                <button
                  key={date}
                  type="button"
                  className="pp-day"
                  disabled={free === 0}
                  aria-pressed={booking.placeAndTime.selectedDate === date}
                  onClick={() => void booking.placeAndTime.selectDate(date)}
                >
                  <span className="pp-day-name">{dayLabel(date, i18n.language)}</span>
                  <span className="pp-day-free">
                    {free > 0 ? t('booking.calendar.freeCount', { count: free }) : t('booking.calendar.noTimes')}
                  </span>
                </button>
              );
            })}
          </div>
          {selectedDay ? (
            <div className="pp-day-times">
              <h4>{dayLabel(selectedDay.date, i18n.language)}</h4>
              {selectedDay.slots.length > 0 ? (
                <SlotButtons date={selectedDay.date} slots={selectedDay.slots} />
              ) : (
                <p className="pp-muted">{t('booking.calendar.noTimes')}</p>
              )}
            </div>
          ) : (
            <p className="pp-muted">
              {days.some((date) => booking.placeAndTime.days.find((day) => day.date === date)?.slots.length)
                ? t('booking.calendar.chooseDay')
                : t('booking.calendar.weekFull')}
            </p>
          )}
        </>
      )}
    </div>
  );
});

const MonthView = observer(function MonthView() {
  const { booking, i18n: i18nStore } = useStores();
  const { t, i18n } = useTranslation();
  const weekStart = i18nStore.weekStart;
  const weeks = monthGrid(booking.placeAndTime.month, weekStart);
  const available = new Map(booking.placeAndTime.monthDays.map((day) => [day.date, day.available]));
  const monthLabel = formatDate(`${booking.placeAndTime.month}-01`, i18n.language, { month: 'long', year: 'numeric' });
  const weekdays = Array.from({ length: 7 }, (_, index) => addDays(A_SUNDAY, (weekStart + index) % 7));
  const selectedDay = booking.placeAndTime.selectedDay;
  return (
    <div>
      <CalendarNav
        label={monthLabel}
        previous={{
          text: t('booking.calendar.previousMonth'),
          enabled: booking.placeAndTime.canGoToPreviousMonth,
          go: () => void booking.placeAndTime.moveMonth(-1),
        }}
        next={{
          text: t('booking.calendar.nextMonth'),
          enabled: booking.placeAndTime.canGoToNextMonth,
          go: () => void booking.placeAndTime.moveMonth(1),
        }}
      />
      <LoadStatus state={booking.placeAndTime.monthState} />
      <table className="pp-month">
        <caption className="pp-visually-hidden">{monthLabel}</caption>
        <thead>
          <tr>
            {weekdays.map((date) => (
              <th key={date} scope="col" abbr={formatDate(date, i18n.language, { weekday: 'long' })}>
                {formatDate(date, i18n.language, { weekday: 'narrow' })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, row) => (
            <tr key={week.find(Boolean) ?? row}>
              {week.map((date, column) => (
                <td key={date ?? `pad-${column}`}>
                  {date && (
                    <button
                      type="button"
                      className="pp-month-day"
                      disabled={available.get(date) !== true}
                      aria-pressed={booking.placeAndTime.selectedDate === date}
                      aria-label={
                        available.get(date) === true
                          ? formatDate(date, i18n.language, { weekday: 'long', day: 'numeric', month: 'long' })
                          : t('booking.calendar.dayFull', {
                              date: formatDate(date, i18n.language, { weekday: 'long', day: 'numeric', month: 'long' }),
                            })
                      }
                      onClick={() => void booking.placeAndTime.selectDate(date)}
                    >
                      {Number(date.slice(8))}
                    </button>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {booking.placeAndTime.selectedDate && (
        <div className="pp-month-times">
          <h4>{dayLabel(booking.placeAndTime.selectedDate, i18n.language)}</h4>
          {booking.placeAndTime.daysState === 'loading' && <p role="status">{t('booking.calendar.loading')}</p>}
          {booking.placeAndTime.daysState === 'loaded' &&
            (selectedDay && selectedDay.slots.length > 0 ? (
              <SlotButtons date={selectedDay.date} slots={selectedDay.slots} />
            ) : (
              <p className="pp-muted">{t('booking.calendar.noTimes')}</p>
            ))}
        </div>
      )}
    </div>
  );
});

const SlotButtons = observer(function SlotButtons({ date, slots }: { date: string; slots: Slot[] }) {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  return (
    <ul className="pp-slots">
      {slots.map((slot) => (
        <li key={slot.startsAt}>
          <button
            type="button"
            className="pp-slot"
            aria-pressed={booking.placeAndTime.selectedStartsAt === slot.startsAt}
            aria-label={t('booking.calendar.time', { day: dayLabel(date, i18n.language), time: slot.localTime })}
            onClick={() => void booking.placeAndTime.pickTime(date, slot)}
          >
            {slot.localTime}
          </button>
        </li>
      ))}
    </ul>
  );
});

const HoldStatus = observer(function HoldStatus() {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  const clinic = booking.placeAndTime.selectedClinic?.clinic;
  let text = '';
  if (booking.placeAndTime.holdState === 'loading') text = t('booking.calendar.holding');
  if (booking.placeAndTime.hold && clinic) {
    const options = { weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' } as const;
    text = t('booking.calendar.held', {
      when: formatInstant(booking.placeAndTime.hold.startsAt, i18n.language, clinic.timeZone, options),
      until: formatInstant(booking.placeAndTime.hold.expiresAt, i18n.language, clinic.timeZone, { hour: 'numeric', minute: '2-digit' }),
    });
  }
  return (
    <p role="status" className="pp-hold-status">
      {text}
    </p>
  );
});
