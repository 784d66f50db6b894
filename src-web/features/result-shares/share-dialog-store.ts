import { makeAutoObservable, runInAction } from 'mobx';
import {
  DEFAULT_SHARE_NOTE_MAX_LENGTH,
  SHARE_PHONE_PATTERN,
  isShareEmail,
  type ShareList,
  type ShareRecord,
  type ShareRequest,
  type SHARE_TYPES,
} from '@contract/api/result-shares';
import { createResultSharesApi, toShareFailure, type ResultSharesApi, type ShareField, type ShareFieldProblem } from './result-shares-api';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';

/**
 * The share-results dialog (docs/rules/results.md#sharing): the patient's
 * shares of one booking's result (or, from the patient portal, the history), a form to share with
 * a contact by e-mail (or SMS when the provider has it), and revoke. The form checks what the
 * server checks, with the list's smsEnabled and noteMaxLength, so a refusal shows next to its
 * field before anything is sent; the server's own refusals land in the same places.
 */

export type ShareType = (typeof SHARE_TYPES)[number];
export type ContactType = ShareRequest['contactDetailsType'];
export type { ShareField, ShareFieldProblem };

/** The contact name's largest length (ShareRequestSchema). */
export const CONTACT_NAME_MAX_LENGTH = 100;

/** A problem the dialog shows above the form (never next to a field). */
export type ShareFormProblem = 'historyNotAllowed' | 'forbidden' | 'notAvailable' | 'tooMany' | 'general';

/** The line after a share: whom, and whether the link goes by e-mail or SMS. */
export interface ShareSuccess {
  contact: string;
  channel: ContactType;
}

export const SHARE_FIELDS: readonly ShareField[] = ['contactDetails', 'contactName', 'note'];

/** Phone numbers are often typed with spaces ("+61 412 345 678"); the digits are what count. */
function withoutSpaces(value: string): string {
  return value.replace(/\s+/g, '');
}

/**
 * EMAIL when the value is an e-mail address, else PHONE; the value is trimmed, and
 * a phone number loses its spaces.
 */
export function contactOf(raw: string): { value: string; type: ContactType } {
  const trimmed = raw.trim();
  if (isShareEmail(trimmed)) return { value: trimmed, type: 'EMAIL' };
  return { value: withoutSpaces(trimmed), type: 'PHONE' };
}

/**
 * The contact's problem. SMS off: required, and an e-mail. SMS on: an e-mail or a
 * phone number of 9 to 15 digits with an optional leading plus, else invalid_contact_details.
 */
export function contactProblem(raw: string, smsEnabled: boolean): ShareFieldProblem | null {
  const contact = contactOf(raw);
  if (!smsEnabled) {
    if (contact.value === '') return 'required';
    return contact.type === 'EMAIL' ? null : 'email';
  }
  if (contact.type === 'EMAIL') return null;
  return SHARE_PHONE_PATTERN.test(contact.value) ? null : 'invalidContact';
}

export interface ShareDialogDeps {
  api: ResultSharesApi;
  /** The app's clock: whether a share has run out. */
  now: () => Date;
}

export class ShareDialogStore {
  list: ShareList | null = null;
  readonly loader = new Loader();
  contactDetails = '';
  contactName = '';
  note = '';
  /** Fields the patient has left (their problems show from then on), or all of them after Share. */
  touched = new Set<ShareField>();
  /** What the server refused, by field; cleared when the patient changes that field. */
  serverProblems: Partial<Record<ShareField, ShareFieldProblem>> = {};
  formProblem: ShareFormProblem | null = null;
  saving = false;
  success: ShareSuccess | null = null;
  /** The share whose Revoke asks "are you sure?". */
  confirmingRevokeId: string | null = null;
  revokingId: string | null = null;
  /** The share whose revoke failed (the problem shows on its row). */
  revokeFailedId: string | null = null;

  constructor(
    private readonly deps: ShareDialogDeps,
    readonly bookingKey: string,
    readonly type: ShareType,
  ) {
    makeAutoObservable<ShareDialogStore, 'deps'>(this, { deps: false, bookingKey: false, type: false, loader: false });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  get smsEnabled(): boolean {
    return this.list?.smsEnabled ?? false;
  }

  get noteMaxLength(): number {
    return this.list?.noteMaxLength ?? DEFAULT_SHARE_NOTE_MAX_LENGTH;
  }

  /** The shares, newest first. */
  get shares(): ShareRecord[] {
    return [...(this.list?.shares ?? [])].sort((a, b) => b.dateCreatedUTC.localeCompare(a.dateCreatedUTC));
  }

  /** EMAIL or PHONE as the share will be sent. */
  get contactType(): ContactType {
    return contactOf(this.contactDetails).type;
  }

  /** Each field's problem by the form's own rules (what the server would refuse). */
  problemOf(field: ShareField): ShareFieldProblem | null {
    switch (field) {
      case 'contactDetails':
        return contactProblem(this.contactDetails, this.smsEnabled);
      case 'contactName':
        return this.contactName.trim().length > CONTACT_NAME_MAX_LENGTH ? 'tooLong' : null;
      case 'note':
        return this.note.trim().length > this.noteMaxLength ? 'tooLong' : null;
    }
  }

  /** The problem to show next to a field now: the server's, else the form's once the field was left. */
  visibleProblem(field: ShareField): ShareFieldProblem | null {
    const server = this.serverProblems[field];
    if (server) return server;
    return this.touched.has(field) ? this.problemOf(field) : null;
  }

  get valid(): boolean {
    return SHARE_FIELDS.every((field) => this.problemOf(field) === null);
  }

  /** The first field with a problem shown, for the focus after Share. */
  get firstInvalidField(): ShareField | null {
    return SHARE_FIELDS.find((field) => this.visibleProblem(field) !== null) ?? null;
  }

  /** Share needs the list (its SMS and note rules) and waits while a share is on its way. */
  get canSubmit(): boolean {
    return this.loadState === 'loaded' && !this.saving;
  }

  /** The request as the contract wants it; call only when valid. */
  get request(): ShareRequest {
    const contact = contactOf(this.contactDetails);
    const name = this.contactName.trim();
    const note = this.note.trim();
    return {
      contactDetails: contact.value,
      contactDetailsType: contact.type,
      ...(name !== '' ? { contactName: name } : {}),
      ...(note !== '' ? { note } : {}),
      type: this.type,
    };
  }

  setField(field: ShareField, value: string): void {
    this[field] = value;
    delete this.serverProblems[field];
    this.success = null;
  }

  touch(field: ShareField): void {
    // Leaving an empty contact is not yet a mistake; Share shows it.
    if (field === 'contactDetails' && this.contactDetails.trim() === '') return;
    this.touched.add(field);
  }

  /** Opens the dialog afresh: an empty form and the list reloaded. */
  async open(): Promise<void> {
    this.contactDetails = '';
    this.contactName = '';
    this.note = '';
    this.touched = new Set();
    this.serverProblems = {};
    this.formProblem = null;
    this.success = null;
    this.confirmingRevokeId = null;
    this.revokeFailedId = null;
    await this.load();
  }

  async load(): Promise<void> {
    await this.loader.run(() => this.deps.api.list(this.bookingKey), {
      loaded: (list) => (this.list = list),
      // A 401 has already sent the patient to sign in; anything else says so with Try again.
      failed: (error) => (toShareFailure(error).kind === 'signedOut' ? 'idle' : 'error'),
    });
  }

  /** Share: every problem shows; when there is none the share is sent. True when it was shared. */
  async submit(): Promise<boolean> {
    for (const field of SHARE_FIELDS) this.touched.add(field);
    this.formProblem = null;
    this.success = null;
    if (!this.canSubmit || !this.valid) return false;
    const request = this.request;
    this.saving = true;
    try {
      const created = await this.deps.api.create(this.bookingKey, request);
      runInAction(() => {
        if (this.list) this.list = { ...this.list, shares: [created, ...this.list.shares.filter((share) => share.id !== created.id)] };
        this.success = { contact: created.contactName ?? created.contactDetails, channel: created.contactDetailsType };
        this.contactDetails = '';
        this.contactName = '';
        this.note = '';
        this.touched = new Set();
        this.serverProblems = {};
      });
      return true;
    } catch (error) {
      const failure = toShareFailure(error);
      runInAction(() => {
        if (failure.kind === 'fields') this.serverProblems = failure.fields;
        else if (failure.kind === 'forbidden') this.formProblem = this.type === 'HISTORY' ? 'historyNotAllowed' : 'forbidden';
        else if (failure.kind !== 'signedOut') this.formProblem = failure.kind;
      });
      return false;
    } finally {
      runInAction(() => {
        this.saving = false;
      });
    }
  }

  askRevoke(id: string): void {
    this.confirmingRevokeId = id;
    this.revokeFailedId = null;
  }

  cancelRevoke(): void {
    this.confirmingRevokeId = null;
  }

  /** Yes on the confirmation: the share is revoked and its row says since when. */
  async confirmRevoke(): Promise<boolean> {
    const id = this.confirmingRevokeId;
    if (id === null || this.revokingId !== null) return false;
    this.revokingId = id;
    this.revokeFailedId = null;
    try {
      const revoked = await this.deps.api.revoke(this.bookingKey, id);
      runInAction(() => {
        if (this.list) this.list = { ...this.list, shares: this.list.shares.map((share) => (share.id === revoked.id ? revoked : share)) };
        this.confirmingRevokeId = null;
      });
      return true;
    } catch (error) {
      runInAction(() => {
        this.confirmingRevokeId = null;
        if (toShareFailure(error).kind !== 'signedOut') this.revokeFailedId = id;
      });
      return false;
    } finally {
      runInAction(() => {
        this.revokingId = null;
      });
    }
  }

  /** True once the share has run out (and was not revoked first). */
  expired(share: ShareRecord): boolean {
    return share.dateRevoked === null && new Date(share.expiresAtUTC).getTime() <= this.deps.now().getTime();
  }
}

/** One dialog store per booking and type, kept for the visit (RootStore.featureStore). */
export class ResultSharing {
  private readonly dialogs = new Map<string, ShareDialogStore>();

  constructor(private readonly deps: ShareDialogDeps) {}

  dialog(bookingKey: string, type: ShareType): ShareDialogStore {
    const key = `${type}:${bookingKey}`;
    let store = this.dialogs.get(key);
    if (!store) {
      store = new ShareDialogStore(this.deps, bookingKey, type);
      this.dialogs.set(key, store);
    }
    return store;
  }
}

/** The result-sharing stores of this visit, built on first use (RootStore.featureStore). */
export function resultSharingOf({ client }: FeatureStoreContext): ResultSharing {
  return new ResultSharing({ api: createResultSharesApi(client), now: () => new Date() });
}
