import { makeAutoObservable, runInAction } from 'mobx';
import {
  STAFF_APPOINTMENTS_PATH,
  STAFF_REMINDERS_PATH,
  StaffAppointmentListSchema,
  StaffReminderSentSchema,
  type StaffReminderSent,
  type StaffAppointment,
  type StaffAppointmentList,
  type StaffAppointmentsQuery,
} from '@contract/api/staff-appointments';
import { ApiError, type ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';
import { staffLoadProblemOf, type StaffLoadProblem } from '../../api/staff-load-problem';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreFactory } from '../../stores/root-store';

/** The one call of the page: a clinic's day (staff session; src-contract/api/staff-appointments.ts). */
export function createStaffAppointmentsApi(client: ApiClient) {
  return {
    list: async (query: StaffAppointmentsQuery): Promise<StaffAppointmentList> =>
      parseResponse(
        STAFF_APPOINTMENTS_PATH,
        StaffAppointmentListSchema,
        (await client.http.get<unknown>(STAFF_APPOINTMENTS_PATH, { params: query, staffSession: true })).data,
      ),
    /** Sends the appointment's reminder now (mail, and SMS where it goes). */
    sendReminder: async (appointmentId: string): Promise<StaffReminderSent> =>
      parseResponse(
        STAFF_REMINDERS_PATH,
        StaffReminderSentSchema,
        (await client.http.post<unknown>(`${STAFF_REMINDERS_PATH}/${encodeURIComponent(appointmentId)}`, {}, { staffSession: true })).data,
      ),
  };
}

/** Where a reminder sent by hand stands, per appointment: on its way, gone (by which channels), or refused with the server's words. */
export type ReminderSending = { state: 'sending' } | { state: 'sent'; sent: StaffReminderSent } | { state: 'failed'; message: string };

export type StaffAppointmentsApi = ReturnType<typeof createStaffAppointmentsApi>;

export type AppointmentOrder = 'time' | 'noAnswerFirst';

/** Still holds its time and nobody has answered: the ones the desk calls. */
export const awaitsAnswer = (item: StaffAppointment): boolean => item.live && item.answer === 'none';

/** Adds whole days to a calendar date (YYYY-MM-DD), in UTC so no zone shifts it. */
export function shiftedDay(isoDate: string, days: number): string {
  const day = new Date(`${isoDate}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/**
 * /staff/appointments (docs/rules/staff-appointments.md): the front desk's confirmation list. The
 * server picks the day's appointments and says what each answer was; the page chooses the clinic
 * and the day (the server's default first: the first clinic, tomorrow) and may put the unanswered
 * ones first.
 */
export class StaffAppointmentsStore {
  data: StaffAppointmentList | null = null;
  readonly loader = new Loader();
  problem: StaffLoadProblem | null = null;
  /** The server's words for a choice it refused (400, 404): the list stays as it was. */
  queryProblem: string | null = null;
  order: AppointmentOrder = 'time';
  /** Reminders sent by hand on this page, by appointment id. */
  sending: Record<string, ReminderSending> = {};
  /** What the page's address asked for, until the first list is shown (a sign-in in between loads it too). */
  private asked: StaffAppointmentsQuery = {};

  constructor(private readonly api: StaffAppointmentsApi) {
    makeAutoObservable<this, 'api' | 'asked'>(this, { api: false, loader: false, asked: false });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** Loaded at least once: the table may show (components/staff-table-page.tsx). */
  get loaded(): boolean {
    return this.data !== null;
  }

  /** The rows in the chosen order; "no answer first" keeps each group in time order. */
  get rows(): StaffAppointment[] {
    const items = this.data?.items ?? [];
    if (this.order === 'time') return items;
    return [...items.filter(awaitsAnswer), ...items.filter((item) => !awaitsAnswer(item))];
  }

  get counts(): { total: number; confirmed: number; noAnswer: number; cancelled: number } {
    const items = this.data?.items ?? [];
    return {
      total: items.length,
      confirmed: items.filter((item) => item.live && item.answer !== 'none').length,
      noAnswer: items.filter(awaitsAnswer).length,
      cancelled: items.filter((item) => !item.live).length,
    };
  }

  /**
   * Loads the clinic's day; with no choice, the one shown (or the server's default on arrival). A
   * choice the server refuses (an address's unknown clinic or impossible day) keeps the list
   * shown, or the default day when none is, with the server's words beside the choices.
   */
  async load(query: StaffAppointmentsQuery = this.shown()): Promise<void> {
    this.problem = null;
    this.queryProblem = null;
    let refusal: string | null = null;
    await this.loader.run(() => this.api.list(query), {
      loaded: (data) => (this.data = data),
      failed: (error) => {
        if (error instanceof ApiError && error.kind === 'http' && (error.status === 400 || error.status === 404)) {
          refusal = error.message;
          if (this.data !== null) return 'loaded';
        }
        this.problem = staffLoadProblemOf(error);
        return 'error';
      },
    });
    if (refusal === null) return;
    if (this.data === null && (query.clinic !== undefined || query.date !== undefined)) await this.load({});
    runInAction(() => (this.queryProblem = refusal));
  }

  /** Sends an appointment's reminder again (the patient did not get it), then shows the list as it now stands. */
  async sendReminder(appointmentId: string): Promise<void> {
    if (this.sending[appointmentId]?.state === 'sending') return;
    this.sending[appointmentId] = { state: 'sending' };
    try {
      const sent = await this.api.sendReminder(appointmentId);
      runInAction(() => (this.sending[appointmentId] = { state: 'sent', sent }));
      await this.load();
    } catch (error) {
      const message = error instanceof ApiError && error.kind === 'http' && error.status === 409 ? error.message : null;
      runInAction(() => (this.sending[appointmentId] = { state: 'failed', message: message ?? '' }));
    }
  }

  /** The page opens: the address's clinic and day (the server checks them), else the server's default. */
  arrive(asked: StaffAppointmentsQuery): Promise<void> {
    if (this.data === null) this.asked = asked;
    return this.load();
  }

  chooseClinic(slug: string): void {
    void this.load({ ...this.shown(), clinic: slug });
  }

  chooseDay(date: string): void {
    void this.load({ ...this.shown(), date });
  }

  /** The day before (-1) or after (+1) the one shown. */
  moveDay(days: number): void {
    if (this.data !== null) this.chooseDay(shiftedDay(this.data.date, days));
  }

  setOrder(order: AppointmentOrder): void {
    this.order = order;
  }

  dispose(): void {
    this.loader.dispose();
  }

  private shown(): StaffAppointmentsQuery {
    return this.data === null ? this.asked : { clinic: this.data.clinic.slug, date: this.data.date };
  }
}

export const staffAppointmentsStoreOf: FeatureStoreFactory<StaffAppointmentsStore> = ({ client }) =>
  new StaffAppointmentsStore(createStaffAppointmentsApi(client));
