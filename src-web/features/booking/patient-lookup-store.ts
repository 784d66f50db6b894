import { makeAutoObservable, runInAction } from 'mobx';
import { PatientLookupRequestSchema, type FoundPatient, type PatientLookupRequest } from '@contract/api/patient-lookup';
import { ApiError } from '../../api/client';
import type { PatientLookupApi } from './patient-lookup-api';

/**
 * Staff look up a patient who booked before, to fill the booking's details (docs/rules/booking.md#patient-lookup).
 * The fields are checked by the contract's own schema, so the page says what the server would refuse before asking it.
 */
export const LOOKUP_MODES = ['name', 'phone', 'email'] as const;
export type LookupMode = (typeof LOOKUP_MODES)[number];
export type LookupField = 'lastName' | 'firstName' | 'dateOfBirth' | 'phone' | 'email';

const FIELDS_OF: Record<LookupMode, readonly LookupField[]> = {
  name: ['lastName', 'firstName', 'dateOfBirth'],
  phone: ['phone'],
  email: ['email'],
};

export type LookupProblem = 'tooMany' | 'signInNeeded' | 'roleNeeded' | 'unavailable';

export class PatientLookupStore {
  mode: LookupMode = 'name';
  values: Record<LookupField, string> = { lastName: '', firstName: '', dateOfBirth: '', phone: '', email: '' };
  /** Fields whose problem shows: after a search was tried. */
  checked = false;
  searching = false;
  /** null until a search answered. */
  results: FoundPatient[] | null = null;
  more = false;
  problem: LookupProblem | null = null;
  /** The person whose details were put in the form last. */
  used: FoundPatient | null = null;

  private readonly api: PatientLookupApi;

  constructor(deps: { api: PatientLookupApi }) {
    this.api = deps.api;
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  get fields(): readonly LookupField[] {
    return FIELDS_OF[this.mode];
  }

  setMode(mode: LookupMode): void {
    this.mode = mode;
    this.checked = false;
    this.results = null;
    this.problem = null;
  }

  setValue(field: LookupField, value: string): void {
    this.values[field] = value;
  }

  /** The request as the contract wants it, or the fields' problems. */
  private get parsed() {
    const v = this.values;
    const request =
      this.mode === 'name'
        ? { by: 'name', lastName: v.lastName, dateOfBirth: v.dateOfBirth, ...(v.firstName.trim() ? { firstName: v.firstName } : {}) }
        : this.mode === 'phone'
          ? { by: 'phone', phone: v.phone }
          : { by: 'email', email: v.email };
    return PatientLookupRequestSchema.safeParse(request);
  }

  /** The field would be refused (shown once a search was tried; the page words it per locale). */
  invalid(field: LookupField): boolean {
    if (!this.checked) return false;
    const parsed = this.parsed;
    return !parsed.success && parsed.error.issues.some((issue) => issue.path[0] === field);
  }

  get firstInvalidField(): LookupField | null {
    return this.fields.find((field) => this.invalid(field)) ?? null;
  }

  async search(): Promise<void> {
    this.checked = true;
    const parsed = this.parsed;
    if (!parsed.success || this.searching) return;
    const request: PatientLookupRequest = parsed.data;
    this.searching = true;
    this.problem = null;
    try {
      const answer = await this.api.find(request);
      runInAction(() => {
        this.results = answer.patients;
        this.more = answer.more;
      });
    } catch (error) {
      runInAction(() => {
        this.results = null;
        this.problem = problemOf(error);
      });
    } finally {
      runInAction(() => (this.searching = false));
    }
  }

  markUsed(patient: FoundPatient): void {
    this.used = patient;
  }
}

function problemOf(error: unknown): LookupProblem {
  if (!(error instanceof ApiError)) return 'unavailable';
  if (error.status === 429) return 'tooMany';
  if (error.status === 401) return 'signInNeeded';
  if (error.status === 403) return 'roleNeeded';
  return 'unavailable';
}
