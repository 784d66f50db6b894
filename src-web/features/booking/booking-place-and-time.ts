import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { BookingSettings, ClinicWithDistance, DaySlots, Location, Slot } from '@contract/api/booking';
import type { BookingApi } from '../../api/booking-api';
import { Loader, type LoadState } from '../../platform/load-state';
import { addDays, addMonths, firstDayOfWeek, monthOf, type WeekStartDay } from './booking-calendar';
import { localDate } from '../../platform/dates';
import { bookingFailure } from './booking-errors';
import type { Locator, Position } from './booking-locator';
import { BookingLocation } from './booking-location';

export type CalendarView = 'WEEK' | 'MONTH';
/** The exam choice as the clinics and times see it. */
export interface ChosenExams {
  readonly selectedSlugs: string[];
  readonly bookedSlugs: string[];
  readonly isBookingRequest: boolean;
}

/** Where the patient comes back to the times: a reload or a link names the clinic, day and time. */
export interface PlaceAndTimeRestore {
  clinic: string | null;
  date: string | null;
  time: string | null;
}

export interface PlaceAndTimeDeps {
  api: Pick<BookingApi, 'settings' | 'postcode' | 'clinics' | 'availability' | 'month' | 'hold' | 'releaseHold'>;
  today: () => string;
  /** The provider's flags (radiology config) this step follows. */
  flags: () => { showUnableToLocateWindow: boolean; weekStartsTodayEnabled: boolean };
  /** The locale's first day of the week. */
  weekStart: () => WeekStartDay;
  locator: Locator;
  exams: ChosenExams;
  /** A new time is held: the next booking attempt is a new one. */
  holdTaken: () => void;
}

const WEEK_DAYS = 7;

/**
 * Step 1 of the booking flow: the patient's position (its own store, booking-location.ts), the
 * clinics offering the chosen exams, the week or month calendar of the chosen clinic and the
 * chosen time with its hold.
 */
export class BookingPlaceAndTime {
  settings: BookingSettings | null = null;
  /** The patient's position and the location dialogs (booking-location.ts). */
  readonly location: BookingLocation;
  clinics: ClinicWithDistance[] = [];
  /** The clinics near the patient, the month's free days and the shown days' times: each its own load. */
  readonly clinicsLoad = new Loader();
  readonly monthLoad = new Loader();
  readonly daysLoad = new Loader();
  usedDefaultLocation = false;
  selectedClinicSlug: string | null = null;
  /** A clinic named by the link (?clinic=): chosen as soon as it is listed. */
  preferredClinic: string | null = null;
  view: CalendarView = 'WEEK';
  /** First day shown in the week view. */
  weekFrom: string;
  /** Month shown in the month view (YYYY-MM). */
  month: string;
  monthDays: { date: string; available: boolean }[] = [];
  days: DaySlots[] = [];
  selectedDate: string | null = null;
  selectedStartsAt: string | null = null;
  hold: { holdId: string; expiresAt: string; startsAt: string } | null = null;
  holdState: LoadState = 'idle';
  /** Shown above the times after a 409: the time was taken meanwhile. */
  slotTaken = false;

  private readonly deps: PlaceAndTimeDeps;
  private availabilityAbort: AbortController | null = null;
  private clinicsAbort: AbortController | null = null;

  constructor(deps: PlaceAndTimeDeps) {
    this.deps = deps;
    this.location = new BookingLocation({
      api: deps.api,
      locator: deps.locator,
      flags: deps.flags,
      positionChanged: () => this.loadClinics(),
    });
    this.weekFrom = this.firstWeekDay;
    this.month = monthOf(deps.today());
    makeAutoObservable<this, 'deps' | 'availabilityAbort' | 'clinicsAbort'>(this, {
      deps: false,
      availabilityAbort: false,
      clinicsAbort: false,
      settings: observableRef,
      location: false,
      clinicsLoad: false,
      monthLoad: false,
      daysLoad: false,
    });
  }

  get clinicsState(): LoadState {
    return this.clinicsLoad.state;
  }

  get monthState(): LoadState {
    return this.monthLoad.state;
  }

  get daysState(): LoadState {
    return this.daysLoad.state;
  }

  // ------------------------------------------------------------------------------------------
  // Derived state

  /** lat/lng from the link (booking-store reads the URL). */
  get queryPosition(): Location | null {
    return this.location.queryPosition;
  }

  set queryPosition(position: Location | null) {
    this.location.queryPosition = position;
  }

  get position(): Position | null {
    return this.location.position;
  }

  get firstWeekDay(): string {
    return firstDayOfWeek(this.deps.today(), this.deps.flags().weekStartsTodayEnabled, this.deps.weekStart());
  }

  get selectedClinic(): ClinicWithDistance | null {
    return this.clinics.find((entry) => entry.clinic.slug === this.selectedClinicSlug) ?? null;
  }

  get selectedDay(): DaySlots | null {
    return this.days.find((day) => day.date === this.selectedDate) ?? null;
  }

  get selectedSlot(): Slot | null {
    for (const day of this.days) {
      const slot = day.slots.find((candidate) => candidate.startsAt === this.selectedStartsAt);
      if (slot) return slot;
    }
    return null;
  }

  get weekDays(): string[] {
    return Array.from({ length: WEEK_DAYS }, (_, index) => addDays(this.weekFrom, index));
  }

  get canGoToPreviousWeek(): boolean {
    return this.weekFrom > this.firstWeekDay;
  }

  get canGoToNextWeek(): boolean {
    const horizon = this.settings?.horizonDays;
    return horizon === undefined || addDays(this.weekFrom, WEEK_DAYS) <= addDays(this.deps.today(), horizon);
  }

  get canGoToPreviousMonth(): boolean {
    return this.month > monthOf(this.deps.today());
  }

  get canGoToNextMonth(): boolean {
    const horizon = this.settings?.horizonDays;
    return horizon === undefined || addMonths(this.month, 1) <= monthOf(addDays(this.deps.today(), horizon));
  }

  /** The patient may go on to the details: a held time, or listed clinics for a booking request. */
  get canContinue(): boolean {
    if (this.deps.exams.isBookingRequest) return this.clinicsState === 'loaded';
    return this.hold !== null && this.hold.startsAt === this.selectedStartsAt && this.holdState === 'loaded';
  }

  // ------------------------------------------------------------------------------------------
  // Position and clinics

  /** Opens the step: finds the position, then the clinics offering every chosen exam. */
  async open(restore?: PlaceAndTimeRestore): Promise<void> {
    this.slotTaken = false;
    void this.loadSettings();
    if (this.clinicsState !== 'loaded') await this.location.locate();
    const clinic = restore?.clinic ?? (this.selectedClinicSlug === null ? this.preferredClinic : null);
    if (clinic && this.clinics.some((entry) => entry.clinic.slug === clinic)) {
      await this.selectClinic(clinic, restore?.date ?? undefined);
      if (restore?.time && restore.date) {
        const slot = this.days.find((day) => day.date === restore.date)?.slots.find((candidate) => candidate.startsAt === restore.time);
        if (slot) await this.pickTime(restore.date, slot);
      }
    }
  }

  async loadSettings(): Promise<void> {
    if (this.settings) return;
    try {
      const settings = await this.deps.api.settings();
      runInAction(() => {
        this.settings = settings;
      });
    } catch {
      // Settings only bound the calendar's paging; the flow works without them.
    }
  }

  async loadClinics(): Promise<void> {
    this.clinicsAbort?.abort();
    const abort = new AbortController();
    this.clinicsAbort = abort;
    const query = { exams: this.deps.exams.selectedSlugs, latitude: this.position?.latitude, longitude: this.position?.longitude };
    await this.clinicsLoad.run(() => this.deps.api.clinics(query, abort.signal), {
      loaded: (response) => {
        this.clinics = response.clinics;
        this.usedDefaultLocation = response.origin.usedDefault;
        if (this.selectedClinicSlug && !this.clinics.some((entry) => entry.clinic.slug === this.selectedClinicSlug)) {
          this.selectedClinicSlug = null;
          this.clearTime(true);
        }
      },
    });
  }

  // ------------------------------------------------------------------------------------------
  // Calendar and time

  /**
   * Chooses a clinic and shows its times: the week (or month) of its next free time, or of
   * `date` when restoring from the URL.
   */
  async selectClinic(slug: string, date?: string): Promise<void> {
    const entry = this.clinics.find((candidate) => candidate.clinic.slug === slug);
    if (!entry) return;
    this.selectedClinicSlug = slug;
    this.clearTime(true);
    if (this.deps.exams.isBookingRequest) return;
    const target = date ?? (entry.nextAvailable ? localDate(new Date(entry.nextAvailable), entry.clinic.timeZone) : null);
    this.weekFrom = this.firstWeekDay;
    this.month = monthOf(this.deps.today());
    if (target && target >= this.deps.today()) {
      const offset = Math.floor((Date.parse(target) - Date.parse(this.firstWeekDay)) / (WEEK_DAYS * 86_400_000));
      this.weekFrom = addDays(this.firstWeekDay, Math.max(0, offset) * WEEK_DAYS);
      this.month = monthOf(target);
    }
    if (date) this.selectedDate = date;
    await this.loadTimes(true);
  }

  /** WEEK or MONTH; the spec resets the chosen date and time on every toggle. */
  async setView(view: CalendarView): Promise<void> {
    if (this.view === view) return;
    this.view = view;
    this.clearTime(true);
    await this.loadTimes();
  }

  async moveWeek(direction: 1 | -1): Promise<void> {
    if (direction === -1 && !this.canGoToPreviousWeek) return;
    if (direction === 1 && !this.canGoToNextWeek) return;
    this.weekFrom = addDays(this.weekFrom, direction * WEEK_DAYS);
    await this.loadTimes(true);
  }

  async moveMonth(direction: 1 | -1): Promise<void> {
    if (direction === -1 && !this.canGoToPreviousMonth) return;
    if (direction === 1 && !this.canGoToNextMonth) return;
    this.month = addMonths(this.month, direction);
    this.clearTime(true);
    await this.loadTimes();
  }

  /** Shows the free times of one day (a different day lets go of a chosen time). */
  async selectDate(date: string): Promise<void> {
    if (this.selectedDate === date) return;
    this.selectedDate = date;
    this.clearTime(false);
    if (this.view === 'MONTH') await this.loadDays(date, 1);
  }

  /**
   * Loads what the current view shows for the chosen clinic.
   * @param showFirstFreeDay - in the week view, open the first day with a free time unless the
   *   chosen day is in this week (not after a view toggle, which resets the date).
   */
  async loadTimes(showFirstFreeDay = false): Promise<void> {
    if (!this.selectedClinicSlug || this.deps.exams.isBookingRequest) return;
    if (this.view === 'WEEK') {
      await this.loadDays(this.weekFrom, WEEK_DAYS);
      runInAction(() => {
        if (showFirstFreeDay && !this.days.some((day) => day.date === this.selectedDate)) {
          this.selectedDate = this.days.find((day) => day.slots.length > 0)?.date ?? null;
        }
      });
      return;
    }
    await Promise.all([this.loadMonth(), this.selectedDate ? this.loadDays(this.selectedDate, 1) : Promise.resolve()]);
  }

  private async loadDays(from: string, days: number): Promise<void> {
    const clinic = this.selectedClinicSlug;
    if (!clinic) return;
    this.availabilityAbort?.abort();
    const abort = new AbortController();
    this.availabilityAbort = abort;
    const query = { exams: this.deps.exams.bookedSlugs, clinics: [clinic], from, days };
    // A newer load of days aborts this one, whose answer the loader then drops.
    await this.daysLoad.run(() => this.deps.api.availability(query, abort.signal), {
      loaded: (response) => (this.days = response.clinics.find((entry) => entry.clinicSlug === clinic)?.days ?? []),
      failed: () => void (this.days = []),
    });
  }

  private async loadMonth(): Promise<void> {
    const clinic = this.selectedClinicSlug;
    if (!clinic) return;
    const query = { exams: this.deps.exams.bookedSlugs, clinics: [clinic], month: this.month };
    await this.monthLoad.run(() => this.deps.api.month(query), {
      loaded: (response) => (this.monthDays = response.days),
      failed: () => void (this.monthDays = []),
    });
  }

  /** Picks a time and holds it while the patient enters details; a taken time says so and reloads. */
  async pickTime(date: string, slot: Slot): Promise<void> {
    const clinic = this.selectedClinicSlug;
    if (!clinic) return;
    this.releaseHold();
    this.selectedDate = date;
    this.selectedStartsAt = slot.startsAt;
    this.slotTaken = false;
    this.holdState = 'loading';
    try {
      const hold = await this.deps.api.hold({ exams: this.deps.exams.bookedSlugs, clinicSlug: clinic, startsAt: slot.startsAt });
      runInAction(() => {
        if (this.selectedStartsAt !== slot.startsAt) {
          // The patient picked another time meanwhile; this hold is not wanted.
          void this.deps.api.releaseHold(hold.holdId).catch(() => undefined);
          return;
        }
        this.hold = { ...hold, startsAt: slot.startsAt };
        this.holdState = 'loaded';
        this.deps.holdTaken();
      });
    } catch (error) {
      const failure = bookingFailure(error);
      runInAction(() => {
        this.holdState = 'error';
        if (failure.kind === 'slot_taken') {
          this.slotTaken = true;
          this.selectedStartsAt = null;
        }
      });
      if (failure.kind === 'slot_taken') await this.loadTimes();
    }
  }

  /** Clears the chosen time (and the date unless clearDate is false), releasing any hold. */
  clearTime(clearDate: boolean): void {
    this.releaseHold();
    this.selectedStartsAt = null;
    this.holdState = 'idle';
    if (clearDate) this.selectedDate = null;
  }

  /** The hold became an appointment elsewhere (a reschedule took its place): forget it, nothing to release. */
  forgetHold(): void {
    this.hold = null;
    this.holdState = 'idle';
  }

  private releaseHold(): void {
    const hold = this.hold;
    this.hold = null;
    if (hold) void this.deps.api.releaseHold(hold.holdId).catch(() => undefined);
  }

  /** The chosen time went to someone else: no hold to release, and the times say so. */
  timeTaken(): void {
    this.hold = null;
    this.selectedStartsAt = null;
    this.holdState = 'idle';
    this.slotTaken = true;
  }

  /** The hold became the booking; the times seen so far are stale. */
  booked(): void {
    this.hold = null;
    this.days = [];
    this.monthDays = [];
    this.clinicsLoad.set('idle');
  }

  /** Another exam choice: clinics, times and any hold no longer fit. */
  examsChanged(): void {
    this.clinics = [];
    this.clinicsLoad.dispose();
    this.clinicsLoad.set('idle');
    this.selectedClinicSlug = null;
    this.clearTime(true);
  }

  dispose(): void {
    this.availabilityAbort?.abort();
    this.clinicsAbort?.abort();
    for (const load of [this.clinicsLoad, this.monthLoad, this.daysLoad]) load.dispose();
  }
}
