import { observer } from 'mobx-react-lite';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { dayLabel } from './booking-calendar';
import { useStores } from '../../stores/use-stores';
import { CalendarNav, LoadStatus, moveAcrossToolbar, toolbarTabStop, useIntoViewAfterChoice } from './calendar-parts';
import { MonthView } from './calendar-month';
import { HoldStatus, SlotButtons } from './calendar-slots';
import { CallbackLink } from './callback-link';
import './calendar-view.css';

/** The free times of the chosen clinic in a WEEK or MONTH view (toggling resets date and time). */
export const CalendarView = observer(function CalendarView() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const headingId = useId();
  const clinic = booking.placeAndTime.selectedClinic;
  // Choosing a clinic brings its times into view (on a phone they sit below every clinic card).
  const slug = clinic?.clinic.slug ?? null;
  const sectionRef = useIntoViewAfterChoice<HTMLElement>(slug, true);
  // The focus follows to the chosen clinic's times: the keyboard goes on from there, not through
  // every other clinic and the map (the scroll is the hook's, so the focus does not scroll).
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (slug !== null) headingRef.current?.focus({ preventScroll: true });
  }, [slug]);
  if (!clinic) return null;
  return (
    <section className="pp-calendar" aria-labelledby={headingId} ref={sectionRef}>
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="pp-calendar-title">
        {t('booking.calendar.title', { name: clinic.clinic.name })}
      </h3>
      <div className="pp-chips" role="toolbar" aria-label={t('booking.calendar.view')} onKeyDown={moveAcrossToolbar}>
        <button
          type="button"
          className="pp-chip"
          aria-pressed={booking.placeAndTime.view === 'WEEK'}
          tabIndex={booking.placeAndTime.view === 'WEEK' ? 0 : -1}
          onClick={() => void booking.placeAndTime.setView('WEEK')}
        >
          {t('booking.calendar.week')}
        </button>
        <button
          type="button"
          className="pp-chip"
          aria-pressed={booking.placeAndTime.view === 'MONTH'}
          tabIndex={booking.placeAndTime.view === 'MONTH' ? 0 : -1}
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

/** One day of the week strip: past days are quiet (not "fully booked"), today is marked. */
const DayButton = observer(function DayButton({ date, tabStop }: { date: string; tabStop: boolean }) {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  const today = booking.today;
  const label = dayLabel(date, i18n.language);
  if (date < today) {
    return (
      <button type="button" className="pp-day pp-day-past" disabled aria-label={t('booking.calendar.pastDay', { date: label })}>
        <span className="pp-day-name">{label}</span>
      </button>
    );
  }
  const free = booking.placeAndTime.days.find((candidate) => candidate.date === date)?.slots.length ?? 0;
  const freeText = free > 0 ? t('booking.calendar.freeCount', { count: free }) : t('booking.calendar.noTimes');
  // Spoken as one phrase ("Wed, 25 Nov, today, 2 free"); the stacked lines would run together.
  const name = `${date === today ? t('booking.calendar.todayDay', { date: label }) : label}, ${freeText}`;
  return (
    <button
      type="button"
      className={date === today ? 'pp-day pp-day-today' : 'pp-day'}
      disabled={free === 0}
      aria-pressed={booking.placeAndTime.selectedDate === date}
      aria-current={date === today ? 'date' : undefined}
      aria-label={name}
      tabIndex={tabStop ? 0 : -1}
      onClick={() => void booking.placeAndTime.selectDate(date)}
    >
      <span className="pp-day-name">
        {date === today && <span className="pp-day-today-mark">{t('booking.calendar.today')} </span>}
        {label}
      </span>
      <span className="pp-day-free">{freeText}</span>
    </button>
  );
});

const WeekView = observer(function WeekView() {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  const days = booking.placeAndTime.weekDays;
  const first = days[0] ?? booking.placeAndTime.weekFrom;
  const last = days[days.length - 1] ?? first;
  const range = `${dayLabel(first, i18n.language)} – ${dayLabel(last, i18n.language)}`;
  const selectedDay = booking.placeAndTime.selectedDay;
  const timesRef = useIntoViewAfterChoice<HTMLDivElement>(booking.placeAndTime.selectedDate);
  const freeOn = (date: string) =>
    date >= booking.today && (booking.placeAndTime.days.find((day) => day.date === date)?.slots.length ?? 0) > 0;
  const tabStop = toolbarTabStop(days, (date) => booking.placeAndTime.selectedDate === date, freeOn);
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
          <div className="pp-day-strip" role="toolbar" aria-label={t('booking.calendar.days')} onKeyDown={moveAcrossToolbar}>
            {days.map((date) => (
              <DayButton key={date} date={date} tabStop={date === tabStop} />
            ))}
          </div>
          {selectedDay ? (
            <div className="pp-day-times" ref={timesRef}>
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
          {/* Once a time is chosen, "no time suits you" no longer applies (and is one Tab stop fewer). */}
          {booking.placeAndTime.selectedSlot === null && <CallbackLink />}
        </>
      )}
    </div>
  );
});
