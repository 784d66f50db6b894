import { makeAutoObservable, observableRef } from 'mobx';
import type { DayPlan } from '@contract/api/day-plan';
import type { AppointmentsApi } from '../../api/appointments-api';
import { Loader, type LoadState } from '../../platform/load-state';

/**
 * The appointment page's "Your day" (docs/rules/day-plan.md): the plan the server built for the
 * booking, loaded with the page and again after anything that changes what is missing (an
 * upload, a signature). The times are the server's; the section formats them.
 */
export class AppointmentDayPlan {
  plan: DayPlan | null = null;
  private readonly loader = new Loader();
  private readonly api: Pick<AppointmentsApi, 'dayPlan'>;

  constructor(api: Pick<AppointmentsApi, 'dayPlan'>) {
    this.api = api;
    makeAutoObservable<this, 'loader' | 'api'>(this, { loader: false, api: false, plan: observableRef });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** Shown only with a step to take: a booking with nothing still to come has no day to plan. */
  get shown(): boolean {
    return this.plan !== null && this.plan.steps.length > 0;
  }

  async load(bookingKey: string): Promise<void> {
    await this.loader.run(() => this.api.dayPlan(bookingKey), {
      loaded: (plan) => {
        this.plan = plan;
      },
    });
  }

  /** Another booking opened, or the page closed: its plan is not this one. */
  reset(): void {
    this.loader.dispose();
    this.loader.set('idle');
    this.plan = null;
  }
}
