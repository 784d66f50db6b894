/** What other modules may use of schedule: opening hours as intervals, and calendar days in a clinic's zone. */
export { addDays, localDateOf, localMidnight } from './zone-days';
export { minutesOfDay, openIntervals, type Interval, type LocalSpan, type ResourceSchedule } from './schedule';
