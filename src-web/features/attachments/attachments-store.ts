import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { Attachment, AttachmentsResponse, UploadContentType } from '@contract/api/attachments';
import { createAttachmentsApi, type AttachmentOwner, type AttachmentsApi, type UploadFields } from '../../api/attachments-api';
import { ApiError } from '../../api/client';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';
import { refusalMessage } from '../../api/refusal';

/** Which upload slot: a requested document type's id, or OTHER for a document of no requested type. */
export type SlotId = string;
export const OTHER_SLOT: SlotId = 'OTHER';

/** What the widget says about one slot. */
export type SlotProblem =
  | { kind: 'invalidType' }
  | { kind: 'tooLarge'; maxBytes: number }
  /** The booking's document space has no room for the file (what is left, 0 when full). */
  | { kind: 'spaceFull'; leftBytes: number }
  /** The storage for documents uploaded while booking is full (507 insufficient_storage). */
  | { kind: 'storageFull' }
  /** The server's message (its words are written for patients), or '' for the general text. */
  | { kind: 'server'; message: string };

export type AttachmentsNotice = { kind: 'uploaded' | 'replaced' | 'deleted'; fileName: string };

export type AttachmentsDialog =
  | { kind: 'viewer'; index: number }
  | { kind: 'info'; id: string }
  | { kind: 'deleteConfirm'; id: string }
  /** A staff action the server refused: which one, and its message ('' for the general text). */
  | { kind: 'failed'; action: 'delete' | 'accept'; message: string };

/** File extensions a browser may give without a type (HEIC often arrives as ''). */
const EXTENSIONS: Record<UploadContentType, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/heic': ['heic', 'heif'],
};
const TYPE_ALIASES: Record<string, UploadContentType> = { 'image/heif': 'image/heic', 'image/jpg': 'image/jpeg' };

/**
 * The widget's first check, by the type and name the browser gives, so a wrong file gets its hint
 * at once; the server checks the bytes again and has the last word (docs/rules/attachments.md#content).
 */
export function looksAllowed(file: { name: string; type: string }, allowed: readonly UploadContentType[]): boolean {
  const type = TYPE_ALIASES[file.type] ?? file.type;
  if (type !== '' && type !== 'application/octet-stream') return (allowed as readonly string[]).includes(type);
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return allowed.some((one) => EXTENSIONS[one].includes(extension));
}

export interface AttachmentsStoreDeps {
  api: AttachmentsApi;
  /** Staff with the staff or admin role: the delete button and the admin wording. */
  isStaff: () => boolean;
}

/**
 * The documents of one booking (docs/rules/attachments.md#the-web-app): what its exams ask for,
 * what is uploaded, one upload at a time with its progress, the viewer, the information dialog and
 * staff's delete. After every change the list is loaded again and `onChanged` runs (the page
 * asks check-in readiness again and drops the `upload` query parameter).
 */
export class AttachmentsStore {
  owner: AttachmentOwner | null = null;
  response: AttachmentsResponse | null = null;
  readonly loader = new Loader();
  uploading: { slot: SlotId; fileName: string; percent: number } | null = null;
  problem: { slot: SlotId; problem: SlotProblem } | null = null;
  notice: AttachmentsNotice | null = null;
  dialog: AttachmentsDialog | null = null;
  busy = false;

  private readonly deps: AttachmentsStoreDeps;
  private onChanged: () => void = () => undefined;
  private examSlugs: readonly string[] = [];

  constructor(deps: AttachmentsStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'onChanged' | 'examSlugs'>(this, {
      deps: false,
      loader: false,
      onChanged: false,
      examSlugs: false,
      response: observableRef,
    });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  get isStaff(): boolean {
    return this.deps.isStaff();
  }

  get attachments(): Attachment[] {
    return this.response?.attachments ?? [];
  }

  get allowedTypes(): readonly UploadContentType[] {
    return this.response?.limits.allowedContentTypes ?? [];
  }

  /** The file a viewer or dialog is about. */
  attachment(id: string): Attachment | null {
    return this.attachments.find((one) => one.id === id) ?? null;
  }

  fileUrl(serverPath: string): string {
    return this.deps.api.fileUrl(serverPath);
  }

  /** examSlugs: the booking flow's chosen exams, for the temporary base (their documents are asked for). */
  async open(owner: AttachmentOwner, onChanged?: () => void, examSlugs: readonly string[] = []): Promise<void> {
    const same = this.owner?.base === owner.base && this.owner.bookingKey === owner.bookingKey;
    if (!same) {
      this.response = null;
      this.notice = null;
      this.problem = null;
      this.dialog = null;
    }
    this.owner = owner;
    this.onChanged = onChanged ?? (() => undefined);
    this.examSlugs = examSlugs;
    await this.reload();
  }

  async reload(): Promise<void> {
    const owner = this.owner;
    if (owner === null) return;
    await this.loader.run(() => this.deps.api.response(owner, this.examSlugs), { loaded: (response) => (this.response = response) });
  }

  dispose(): void {
    this.loader.dispose();
  }

  /**
   * A file was picked for a slot: upload starts at once (spec), replacing the slot's document when
   * it has one. Answers true when the document was stored.
   */
  async pick(slot: SlotId, file: File, fields: Omit<UploadFields, 'documentTypeId'> = {}): Promise<boolean> {
    const owner = this.owner;
    const response = this.response;
    if (owner === null || response === null || this.uploading !== null) return false;
    this.notice = null;
    if (!looksAllowed(file, response.limits.allowedContentTypes)) {
      this.problem = { slot, problem: { kind: 'invalidType' } };
      return false;
    }
    if (file.size > response.limits.maxFileBytes) {
      this.problem = { slot, problem: { kind: 'tooLarge', maxBytes: response.limits.maxFileBytes } };
      return false;
    }
    const requested = response.documents.find((document) => document.documentTypeId === slot);
    const replaceId = requested?.uploadedDocument?.id;
    // The booking's space (a replaced document's bytes come back); the server checks it again.
    const used = response.attachments.reduce((sum, one) => sum + (one.id === replaceId ? 0 : one.size), 0);
    const leftBytes = response.limits.maxBytesPerBooking - used;
    if (file.size > leftBytes) {
      this.problem = { slot, problem: { kind: 'spaceFull', leftBytes: Math.max(0, leftBytes) } };
      return false;
    }
    this.problem = null;
    this.uploading = { slot, fileName: file.name, percent: 0 };
    try {
      await this.deps.api.upload(
        owner,
        file,
        { ...fields, ...(requested ? { documentTypeId: requested.documentTypeId } : {}) },
        (percent) => runInAction(() => this.uploading !== null && (this.uploading.percent = percent)),
        replaceId,
      );
      runInAction(() => {
        this.uploading = null;
        this.notice = { kind: replaceId === undefined ? 'uploaded' : 'replaced', fileName: file.name };
      });
      await this.changed();
      return true;
    } catch (error) {
      runInAction(() => {
        this.uploading = null;
        this.problem = { slot, problem: uploadProblem(error) };
      });
      return false;
    }
  }

  openViewer(id: string): void {
    const index = this.attachments.findIndex((one) => one.id === id);
    if (index >= 0) this.dialog = { kind: 'viewer', index };
  }

  /** Next (+1) or previous (-1) document in the viewer, wrapping around. */
  step(by: 1 | -1): void {
    const count = this.attachments.length;
    if (this.dialog?.kind !== 'viewer' || count === 0) return;
    this.dialog = { kind: 'viewer', index: (this.dialog.index + by + count) % count };
  }

  openInfo(id: string): void {
    this.dialog = { kind: 'info', id };
  }

  askDelete(id: string): void {
    if (this.isStaff) this.dialog = { kind: 'deleteConfirm', id };
  }

  closeDialog(): void {
    this.dialog = null;
  }

  /** Yes on the delete confirmation (staff). */
  async confirmDelete(): Promise<void> {
    const owner = this.owner;
    const dialog = this.dialog;
    if (owner === null || dialog?.kind !== 'deleteConfirm' || this.busy) return;
    const fileName = this.attachment(dialog.id)?.fileName ?? '';
    this.busy = true;
    try {
      await this.deps.api.remove(owner, dialog.id);
      runInAction(() => {
        this.busy = false;
        this.dialog = null;
        this.notice = { kind: 'deleted', fileName };
      });
      await this.changed();
    } catch (error) {
      runInAction(() => {
        this.busy = false;
        this.dialog = { kind: 'failed', action: 'delete', message: refusalMessage(error) };
      });
    }
  }

  /** Staff accept a referral the date check warned about; the warning goes. */
  async acceptReferralDate(id: string): Promise<void> {
    const owner = this.owner;
    if (owner === null || !this.isStaff || this.busy) return;
    this.busy = true;
    try {
      await this.deps.api.acceptReferralDate(owner, id);
      runInAction(() => (this.busy = false));
      await this.reload();
    } catch (error) {
      runInAction(() => {
        this.busy = false;
        this.dialog = { kind: 'failed', action: 'accept', message: refusalMessage(error) };
      });
    }
  }

  private async changed(): Promise<void> {
    await this.reload();
    this.onChanged();
  }
}

/** What a refused upload says: the full document space and storage in the page's own words, else the server's message. */
function uploadProblem(error: unknown): SlotProblem {
  if (error instanceof ApiError && error.code === 'document_space_full') {
    const details = error.details as { leftBytes?: unknown } | undefined;
    return { kind: 'spaceFull', leftBytes: typeof details?.leftBytes === 'number' ? details.leftBytes : 0 };
  }
  if (error instanceof ApiError && error.code === 'insufficient_storage') {
    // A full disk (reason disk_full) is not the booking-time budget: the server's words, written for
    // patients, say what to do (refusalMessage keeps no 5xx's words, so they are read here).
    const details = error.details as { reason?: unknown } | undefined;
    return details?.reason === 'disk_full' ? { kind: 'server', message: error.message } : { kind: 'storageFull' };
  }
  return { kind: 'server', message: refusalMessage(error) };
}

/** The documents store, built once per visit (RootStore.featureStore). */
export function attachmentsStoreOf({ root, client }: FeatureStoreContext): AttachmentsStore {
  return new AttachmentsStore({
    api: createAttachmentsApi(client),
    isStaff: () => root.staff.hasAnyRole(['staff', 'admin']),
  });
}
