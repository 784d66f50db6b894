import type { StillMissingItem } from '@contract/api/check-in-checklist';
import { clinicClockTime, planExamDay } from '@contract/api/clinic-time';
import type { DayPlan, DayPlanStep } from '@contract/api/day-plan';

/**
 * The day plan as plain English lines, for a reminder mail or SMS (docs/rules/day-plan.md#in-a-reminder):
 * one line per timed step ("10:45 am to 11:15 am: drink 1 litre of water"), then what is still
 * missing, then the address with its map link and the parking. `locale` sets how times read
 * (en-AU: "10:45 am"); the words are English, as the reminders are.
 */
export function dayPlanLines(plan: DayPlan, locale: string): string[] {
  const examDay = planExamDay(plan);
  if (examDay === null) return [];
  const time = (instant: string) => clinicClockTime(instant, examDay, plan.timeZone, locale);
  return [
    ...plan.steps.map((step) => stepLine(step, time)),
    ...plan.missing.map(missingLine),
    `Address: ${plan.clinic.name}, ${plan.clinic.address} (map: ${plan.clinic.mapUrl})`,
    ...(plan.clinic.parking === null ? [] : [`Parking: ${plan.clinic.parking}`]),
  ];
}

function stepLine(step: DayPlanStep, time: (instant: string) => string): string {
  switch (step.kind) {
    case 'STOP_MEDICATION':
      return `${time(step.at)}: stop taking ${step.medicine} (for your ${step.examName})`;
    case 'STOP_EATING':
      return `${time(step.at)}: stop eating; water is fine unless we told you otherwise`;
    case 'DRINK':
      return `${time(step.at)} to ${time(step.until)}: drink ${step.amount}`;
    case 'ARRIVE':
      return `${time(step.at)}: arrive at the clinic and check in`;
    case 'EXAM':
      return `${time(step.at)}: your ${step.examName}`;
  }
}

function missingLine(item: StillMissingItem): string {
  switch (item.kind) {
    case 'CONSENT_FORMS':
      return item.count === 1
        ? 'Still to do: sign your consent form on the appointment page'
        : `Still to do: sign your ${item.count} consent forms on the appointment page`;
    case 'REFERRAL':
      return 'Still to do: upload your referral on the appointment page, or bring it';
    case 'BRING_DOCUMENT':
      return `Still to do: bring ${item.title}`;
  }
}
