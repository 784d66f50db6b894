import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { addDays, dayLabel, formatDate, monthGrid } from './booking-calendar';
import { useStores } from '../../stores/use-stores';
import { CalendarNav, LoadStatus, useIntoViewAfterChoice } from './calendar-parts';
import { SlotButtons } from './calendar-slots';

/** A known Sunday, to name the weekdays in the locale's order. */
const A_SUNDAY = '2024-01-07';

/** The month grid: today ringed, past days quiet, days with free times marked; the chosen day's times below. */
export const MonthView = observer(function MonthView() {
  const { booking, i18n: i18nStore } = useStores();
  const { t, i18n } = useTranslation();
  const weekStart = i18nStore.weekStart;
  const weeks = monthGrid(booking.placeAndTime.month, weekStart);
  const available = new Map(booking.placeAndTime.monthDays.map((day) => [day.date, day.available]));
  const monthLabel = formatDate(`${booking.placeAndTime.month}-01`, i18n.language, { month: 'long', year: 'numeric' });
  const weekdays = Array.from({ length: 7 }, (_, index) => addDays(A_SUNDAY, (weekStart + index) % 7));
  const selectedDay = booking.placeAndTime.selectedDay;
  const today = booking.today;
  const timesRef = useIntoViewAfterChoice<HTMLDivElement>(booking.placeAndTime.selectedDate);

  const dayName = (date: string): string => {
    const long = formatDate(date, i18n.language, { weekday: 'long', day: 'numeric', month: 'long' });
    if (date < today) return t('booking.calendar.pastDay', { date: long });
    if (available.get(date) !== true) return t('booking.calendar.dayFull', { date: long });
    return date === today ? t('booking.calendar.todayDay', { date: long }) : long;
  };

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
                <span className="pp-month-weekday-short">{formatDate(date, i18n.language, { weekday: 'narrow' })}</span>
                <span className="pp-month-weekday-long">{formatDate(date, i18n.language, { weekday: 'short' })}</span>
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
                      className={[
                        'pp-month-day',
                        date < today ? 'pp-day-past' : '',
                        date === today ? 'pp-day-today' : '',
                        available.get(date) === true ? 'pp-month-day-free' : '',
                      ]
                        .filter(Boolean)
                        .join(' ')}
                      disabled={available.get(date) !== true || date < today}
                      aria-pressed={booking.placeAndTime.selectedDate === date}
                      aria-current={date === today ? 'date' : undefined}
                      aria-label={dayName(date)}
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
        <div className="pp-month-times" ref={timesRef}>
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
