import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { StillMissingItem } from '@contract/api/check-in-checklist';
import { clinicClockTime, planExamDay } from '@contract/api/clinic-time';
import type { DayPlan, DayPlanStep } from '@contract/api/day-plan';
import type { AppointmentDayPlan } from './appointment-day-plan';

/**
 * "Your day" on the appointment page (docs/rules/day-plan.md): the timed steps, time on the left
 * and what to do on the right, what is still missing, and the way to the clinic. Shown before
 * check-in and still on the day; steps whose time is over read as done (a word, not only a colour).
 */

/** What to do at a step, one literal key per kind so the catalogue check sees each. */
function stepAction(t: TFunction, step: DayPlanStep, clinic: string): string {
  switch (step.kind) {
    case 'STOP_MEDICATION':
      return t('appointment.dayPlan.steps.STOP_MEDICATION', { medicine: step.medicine });
    case 'STOP_EATING':
      return t('appointment.dayPlan.steps.STOP_EATING');
    case 'DRINK':
      return t('appointment.dayPlan.steps.DRINK', { amount: step.amount });
    case 'ARRIVE':
      return t('appointment.dayPlan.steps.ARRIVE', { clinic });
    case 'EXAM':
      return t('appointment.dayPlan.steps.EXAM', { exam: step.examName });
  }
}

/** `consentOnPage`: the page lists the forms to sign (a live booking); otherwise the desk has them. */
function missingText(t: TFunction, item: StillMissingItem, consentOnPage: boolean): string {
  switch (item.kind) {
    case 'CONSENT_FORMS':
      return consentOnPage
        ? t('appointment.dayPlan.missing.consentForms', { count: item.count })
        : t('checkIn.checklist.consentFormsKiosk', { count: item.count });
    case 'REFERRAL':
      return t('appointment.dayPlan.missing.referral');
    case 'BRING_DOCUMENT':
      return t('appointment.dayPlan.missing.bring', { title: item.title });
  }
}

function StepRow({ step, plan, examDay, severalExams }: { step: DayPlanStep; plan: DayPlan; examDay: string; severalExams: boolean }) {
  const { t, i18n } = useTranslation();
  const time = (instant: string) => clinicClockTime(instant, examDay, plan.timeZone, i18n.language);
  // With two exams a drink or a medicine says which exam it is for; the exam rows name themselves.
  const forExam = severalExams && (step.kind === 'DRINK' || step.kind === 'STOP_MEDICATION') ? step.examName : null;
  return (
    <li className={step.past ? 'pp-day-plan-step pp-day-plan-past' : 'pp-day-plan-step'} data-testid="day-plan-step">
      <time className="pp-day-plan-time" dateTime={step.at}>
        {time(step.at)}
      </time>
      <span className="pp-day-plan-action">
        {stepAction(t, step, plan.clinic.name)}
        {step.kind === 'DRINK' && (
          <span className="pp-day-plan-detail">{t('appointment.dayPlan.finishBy', { time: time(step.until) })}</span>
        )}
        {forExam !== null && <span className="pp-day-plan-detail">{t('appointment.dayPlan.forExam', { exam: forExam })}</span>}
        {step.past && <span className="pp-day-plan-done">{t('appointment.dayPlan.past')}</span>}
      </span>
    </li>
  );
}

function Missing({ items, consentOnPage }: { items: readonly StillMissingItem[]; consentOnPage: boolean }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <>
      <h3 id="pp-day-plan-missing-title">{t('appointment.dayPlan.missingTitle')}</h3>
      <ul className="pp-day-plan-missing" aria-labelledby="pp-day-plan-missing-title">
        {items.map((item) => (
          <li key={item.kind}>
            {missingText(t, item, consentOnPage)}
            {item.kind === 'BRING_DOCUMENT' && item.description !== '' && <span className="pp-day-plan-detail">{item.description}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

function WayThere({ clinic }: { clinic: DayPlan['clinic'] }) {
  const { t } = useTranslation();
  return (
    <>
      <h3>{t('appointment.dayPlan.wayTitle')}</h3>
      <address className="pp-day-plan-address">
        <strong>{clinic.name}</strong>
        <br />
        {clinic.address}
      </address>
      <a className="pp-target-link" href={clinic.mapUrl} target="_blank" rel="noopener noreferrer">
        {t('appointment.dayPlan.map', { clinic: clinic.name })}
      </a>
      {clinic.parking !== null && (
        <p className="pp-day-plan-parking">
          <strong>{t('appointment.dayPlan.parking')}: </strong>
          {clinic.parking}
        </p>
      )}
    </>
  );
}

export const DayPlanSection = observer(function DayPlanSection({
  dayPlan,
  consentOnPage,
}: {
  dayPlan: AppointmentDayPlan;
  /** The page offers the consent forms to sign (the booking is live). */
  consentOnPage: boolean;
}) {
  const { t, i18n } = useTranslation();
  const plan = dayPlan.plan;
  if (dayPlan.loadState === 'error')
    return (
      <section aria-labelledby="pp-day-plan-title">
        <h2 id="pp-day-plan-title">{t('appointment.dayPlan.title')}</h2>
        <p className="pp-notice">{t('appointment.dayPlan.failed')}</p>
      </section>
    );
  const examDay = plan === null ? null : planExamDay(plan);
  if (!dayPlan.shown || plan === null || examDay === null) return null;
  const date = new Intl.DateTimeFormat(i18n.language, { timeZone: plan.timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(
    new Date(examDay),
  );
  const severalExams = plan.steps.filter((step) => step.kind === 'EXAM').length > 1;
  return (
    <section className="pp-day-plan" aria-labelledby="pp-day-plan-title" data-testid="day-plan">
      <h2 id="pp-day-plan-title">{t('appointment.dayPlan.title')}</h2>
      <p className="pp-muted">{t('appointment.dayPlan.intro', { date })}</p>
      <ol className="pp-day-plan-steps">
        {plan.steps.map((step, index) => (
          <StepRow key={`${step.kind}-${index}`} step={step} plan={plan} examDay={examDay} severalExams={severalExams} />
        ))}
      </ol>
      <Missing items={plan.missing} consentOnPage={consentOnPage} />
      <WayThere clinic={plan.clinic} />
    </section>
  );
});
