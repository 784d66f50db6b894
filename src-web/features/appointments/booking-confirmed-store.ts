import { makeAutoObservable, observableRef } from 'mobx';
import type { AppointmentSummary } from '@contract/api/appointments';
import { createAppointmentsApi, type AppointmentsApi } from '../../api/appointments-api';
import { Loader } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';
import type { SignInType } from '@contract/api/patient-access';
import { googleCalendarUrl, outlookCalendarUrl, type CalendarLinkEvent } from './calendar-links';
import { patientAccessStoreOf } from '../patient-access/public';
import { isSignInNeeded } from '../../api/refusal';
import { AppointmentWaitlist } from './appointment-waitlist';

export interface BookingConfirmedDeps {
  api: Pick<AppointmentsApi, 'confirmation' | 'calendarFileUrl' | 'waitlist' | 'joinWaitlist' | 'leaveWaitlist'>;
  /** Sends the patient to sign in for the booking; true once signed in. */
  ensureSignedIn(bookingKey: string, type: SignInType): Promise<boolean>;
}

/**
 * The confirmation at /appointments/{bookingKey}/confirmed (docs/rules/booking.md#confirmation):
 * read with the booking browser's receipt, so it survives a reload; a browser without one (a
 * link opened elsewhere, the receipt of a later booking) signs in first, as on the appointment page.
 */
export class BookingConfirmedStore {
  summary: AppointmentSummary | null = null;
  readonly loader = new Loader();
  /** "Want an earlier time?" right after booking (docs/rules/waitlist.md#joining). */
  readonly waitlist: AppointmentWaitlist;
  private bookingKey = '';
  private readonly deps: BookingConfirmedDeps;

  constructor(deps: BookingConfirmedDeps) {
    this.deps = deps;
    this.waitlist = new AppointmentWaitlist(deps.api);
    makeAutoObservable<this, 'deps' | 'bookingKey'>(this, {
      deps: false,
      loader: false,
      waitlist: false,
      bookingKey: false,
      summary: observableRef,
    });
  }

  /** Still loading too while the patient is sent to sign in (no summary yet). */
  get loadState(): 'loading' | 'loaded' | 'error' {
    if (this.loader.state === 'error') return 'error';
    return this.loader.state === 'loaded' && this.summary !== null ? 'loaded' : 'loading';
  }

  async open(bookingKey: string): Promise<void> {
    if (this.bookingKey !== bookingKey) this.summary = null;
    this.bookingKey = bookingKey;
    if (await this.loader.run(() => this.read(bookingKey), { loaded: (summary) => (this.summary = summary) }))
      await this.waitlist.load(bookingKey);
  }

  /** null while the patient is sent to sign in (the page comes back here after it). */
  private async read(bookingKey: string): Promise<AppointmentSummary | null> {
    try {
      return await this.deps.api.confirmation(bookingKey);
    } catch (error) {
      if (!isSignInNeeded(error)) throw error;
      if (!(await this.deps.ensureSignedIn(bookingKey, 'APPOINTMENT'))) return null;
      return this.deps.api.confirmation(bookingKey);
    }
  }

  get calendarFileUrl(): string {
    return this.deps.api.calendarFileUrl(this.bookingKey);
  }

  /** One event from the first start to the last end (a booking's exams follow each other). */
  calendarEvent(title: string, preparationLabel: string): CalendarLinkEvent | null {
    const summary = this.summary;
    const first = summary?.appointments[0];
    const last = summary?.appointments[summary.appointments.length - 1];
    if (!summary || !first || !last) return null;
    const preparation = summary.appointments
      .filter((appointment) => appointment.preparationNotes.trim() !== '')
      .map((appointment) => `${appointment.examName}: ${appointment.preparationNotes}`);
    return {
      title,
      startsAt: first.startsAt,
      endsAt: last.endsAt,
      location: `${summary.clinic.name}, ${summary.clinic.address}`,
      details: [...(preparation.length > 0 ? [`${preparationLabel}:`, ...preparation] : []), summary.clinic.phone]
        .filter(Boolean)
        .join('\n'),
    };
  }

  calendarLinks(title: string, preparationLabel: string): { google: string; outlook: string } | null {
    const event = this.calendarEvent(title, preparationLabel);
    return event === null ? null : { google: googleCalendarUrl(event), outlook: outlookCalendarUrl(event) };
  }
}

export function bookingConfirmedStoreOf({ root, client }: FeatureStoreContext): BookingConfirmedStore {
  return new BookingConfirmedStore({
    api: createAppointmentsApi(client),
    ensureSignedIn: (bookingKey, type) => root.featureStore(patientAccessStoreOf).ensureSignedIn(bookingKey, type),
  });
}
