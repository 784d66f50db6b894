import { makeAutoObservable, runInAction } from 'mobx';
import type { ContactClinic } from '@contract/api/config';
import { NewKioskSchema, type Kiosk } from '@contract/api/kiosks';
import { createStaffKiosksApi, type EnrollmentCode, type StaffKiosksApi } from './staff-kiosks-api';
import { staffLoadProblemOf } from '../../api/staff-load-problem';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';
import { refusalMessage } from '../../api/refusal';

/** Why the list cannot be shown. */
export type KiosksProblem =
  /** 401: no staff session; the page offers staff sign-in. */
  | { kind: 'signInNeeded' }
  /** 403: signed in without the kioskAdmin or admin role; the server's message is shown too. */
  | { kind: 'roleNeeded'; message: string }
  /** No answer, or a 5xx: a generic text and Retry. */
  | { kind: 'unavailable' };

/** Why the last action (add, new code, revoke) changed nothing. */
export type ActionProblem = { kind: 'server'; message: string } | { kind: 'unavailable' };

/** A group of the list: one clinic's kiosks, or (clinic null) the kiosks at no clinic. */
export interface KioskGroup {
  key: string;
  clinic: ContactClinic | null;
  /** The clinic's name, or its slug when the clinic list does not know it. */
  clinicName: string | null;
  kiosks: Kiosk[];
}

export interface StaffKiosksDeps {
  api: StaffKiosksApi;
  clinics: () => readonly ContactClinic[];
}

/**
 * The staff kiosk page (docs/rules/kiosk.md#enrollment): the kiosks by clinic, adding one, a new
 * one-time enrollment code, revoking. One call runs at a time; a refused call changes nothing.
 */
export class StaffKiosksStore {
  kiosks: Kiosk[] = [];
  /** KIOSK_SILENT_MINUTES on the server: an enrolled kiosk unheard this long is silent. */
  silentAfterMinutes = 5;
  readonly loader = new Loader();
  problem: KiosksProblem | null = null;
  actionProblem: ActionProblem | null = null;
  /** An add, new-code or revoke call is under way: every action button waits. */
  busy = false;
  /** The one-time code just issued: shown once, until dismissed or the page is left. */
  issued: EnrollmentCode | null = null;
  /** The kiosk whose revocation waits for a yes. */
  confirmingRevoke: Kiosk | null = null;
  /** The name of the kiosk just revoked, for the page to confirm it (cleared by the next action). */
  revokedName: string | null = null;

  name = '';
  clinicSlug = '';
  /** Set when Add was pressed with a name outside 1 to 80 characters. */
  nameInvalid = false;

  private readonly deps: StaffKiosksDeps;

  constructor(deps: StaffKiosksDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps'>(this, { deps: false, loader: false });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** The kiosks grouped by clinic, clinics by name, the kiosks at no clinic last. */
  get groups(): KioskGroup[] {
    const clinics = this.deps.clinics();
    const bySlug = new Map<string, KioskGroup>();
    const none: KioskGroup = { key: '', clinic: null, clinicName: null, kiosks: [] };
    for (const kiosk of this.kiosks) {
      if (kiosk.clinicSlug === null) {
        none.kiosks.push(kiosk);
        continue;
      }
      let group = bySlug.get(kiosk.clinicSlug);
      if (!group) {
        const clinic = clinics.find((candidate) => candidate.slug === kiosk.clinicSlug) ?? null;
        group = { key: kiosk.clinicSlug, clinic, clinicName: clinic?.name ?? kiosk.clinicSlug, kiosks: [] };
        bySlug.set(kiosk.clinicSlug, group);
      }
      group.kiosks.push(kiosk);
    }
    const sorted = [...bySlug.values()].sort((a, b) => (a.clinicName ?? '').localeCompare(b.clinicName ?? ''));
    for (const group of [...sorted, none]) group.kiosks.sort((a, b) => a.name.localeCompare(b.name));
    return none.kiosks.length > 0 ? [...sorted, none] : sorted;
  }

  async load(): Promise<void> {
    this.problem = null;
    await this.loader.run(() => this.deps.api.list(), {
      loaded: (list) => {
        this.kiosks = list.kiosks;
        this.silentAfterMinutes = list.silentAfterMinutes;
      },
      failed: (error) => {
        this.problem = loadProblemOf(error);
      },
    });
  }

  setName(name: string): void {
    this.name = name;
    if (this.nameInvalid) this.nameInvalid = !NewKioskSchema.shape.name.safeParse(name).success;
  }

  setClinicSlug(slug: string): void {
    this.clinicSlug = slug;
  }

  /** Adds the kiosk the form describes; false when the name is not valid (nothing is sent). */
  async add(): Promise<boolean> {
    const name = NewKioskSchema.shape.name.safeParse(this.name);
    this.nameInvalid = !name.success;
    if (!name.success) return false;
    const issued = await this.run(() => this.deps.api.create({ name: name.data, clinicSlug: this.clinicSlug || null }));
    if (issued === null) return false;
    runInAction(() => {
      this.kiosks = [...this.kiosks, issued.kiosk];
      this.issued = issued;
      this.name = '';
      this.clinicSlug = '';
    });
    return true;
  }

  async newCode(kiosk: Kiosk): Promise<void> {
    const issued = await this.run(() => this.deps.api.newCode(kiosk.id));
    if (issued === null) return;
    runInAction(() => {
      this.replace(issued.kiosk);
      this.issued = issued;
    });
  }

  askRevoke(kiosk: Kiosk): void {
    this.actionProblem = null;
    this.confirmingRevoke = kiosk;
  }

  cancelRevoke(): void {
    this.confirmingRevoke = null;
  }

  async confirmRevoke(): Promise<void> {
    const kiosk = this.confirmingRevoke;
    if (kiosk === null) return;
    const revoked = await this.run(() => this.deps.api.revoke(kiosk.id));
    runInAction(() => {
      this.confirmingRevoke = null;
      if (revoked === null) return;
      this.replace(revoked);
      this.revokedName = revoked.name;
      // A code shown for this kiosk no longer matters once it is revoked.
      if (this.issued?.kiosk.id === revoked.id) this.issued = null;
    });
  }

  dismissCode(): void {
    this.issued = null;
  }

  dispose(): void {
    this.loader.dispose();
  }

  private replace(kiosk: Kiosk): void {
    this.kiosks = this.kiosks.map((candidate) => (candidate.id === kiosk.id ? kiosk : candidate));
  }

  /** Runs one action; null when it failed (the problem is set, nothing else changes). */
  private async run<T>(call: () => Promise<T>): Promise<T | null> {
    if (this.busy) return null;
    this.busy = true;
    this.actionProblem = null;
    this.revokedName = null;
    try {
      return await call();
    } catch (error) {
      runInAction(() => {
        // A lost session or role concerns the whole page, not just this action.
        const pageProblem = loadProblemOf(error);
        if (pageProblem.kind !== 'unavailable') {
          this.problem = pageProblem;
          this.loader.set('error');
        } else this.actionProblem = actionProblemOf(error);
      });
      return null;
    } finally {
      runInAction(() => (this.busy = false));
    }
  }
}

/** The server's own message for a 4xx with a { code, message } body; null otherwise. */
function serverMessage(error: unknown): string | null {
  return refusalMessage(error) || null;
}

function loadProblemOf(error: unknown): KiosksProblem {
  const kind = staffLoadProblemOf(error);
  return kind === 'roleNeeded' ? { kind, message: serverMessage(error) ?? '' } : { kind };
}

function actionProblemOf(error: unknown): ActionProblem {
  const message = serverMessage(error);
  return message === null ? { kind: 'unavailable' } : { kind: 'server', message };
}

/** The page's store, built once per visit (RootStore.featureStore). */
export function staffKiosksStoreOf({ root, client }: FeatureStoreContext): StaffKiosksStore {
  return new StaffKiosksStore({ api: createStaffKiosksApi(client), clinics: () => root.content.clinics });
}
