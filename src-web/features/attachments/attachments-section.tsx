import { observer } from 'mobx-react-lite';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { UPLOAD_ACCEPT_ATTRIBUTE, type UploadContentType } from '@contract/api/attachments';
import type { AttachmentOwner } from '../../api/attachments-api';
import { Button } from '../../components/button';
import { PageLoadState } from '../../components/page-load-state';
import { TextField } from '../../components/text-field';
import { useAttachmentsTexts } from './attachments-texts';
import { useStores } from '../../stores/use-stores';
import { AttachmentDialogs } from './attachment-dialogs';
import {
  attachmentsStoreOf,
  OTHER_SLOT,
  type AttachmentsNotice,
  type AttachmentsStore,
  type SlotId,
  type SlotProblem,
} from './attachments-store';
import { allowedTypesText, megabytes } from './file-types';
import './attachments.css';

/** What a slot's problem says; every key is literal so the catalogue check sees it. */
function slotProblemText(t: TFunction, problem: SlotProblem, allowed: readonly UploadContentType[]): string {
  switch (problem.kind) {
    case 'invalidType':
      return t('attachments.problem.invalidType', { types: allowedTypesText(allowed) });
    case 'tooLarge':
      return t('attachments.problem.tooLarge', { size: megabytes(problem.maxBytes) });
    case 'spaceFull': {
      // Less than a tenth of a megabyte left is full.
      const left = Math.floor((problem.leftBytes / (1024 * 1024)) * 10) / 10;
      return left === 0 ? t('attachments.problem.spaceFull') : t('attachments.problem.spaceLeft', { size: String(left) });
    }
    case 'storageFull':
      return t('attachments.problem.storageFull');
    case 'server':
      return problem.message || t('attachments.problem.server');
  }
}

/** The notice after a change; every key is literal so the catalogue check sees it. */
function noticeText(t: TFunction, notice: AttachmentsNotice): string {
  const values = { fileName: notice.fileName };
  switch (notice.kind) {
    case 'uploaded':
      return t('attachments.notice.uploaded', values);
    case 'replaced':
      return t('attachments.notice.replaced', values);
    case 'deleted':
      return t('attachments.notice.deleted', values);
  }
}

interface SlotProps {
  store: AttachmentsStore;
  slot: SlotId;
  /** A referral: the patient may give its date and the referring doctor (the server checks the date). */
  isReferral?: boolean;
  title: string;
  description: string;
  uploadedFileName: string | null;
}

interface ReferralFieldValues {
  referralDate: string;
  referringDoctor: string;
}

/**
 * The referral's date and doctor: optional, and sent with the upload, so given before the file is
 * chosen. One stop behind a disclosure (the date field alone is three Tab stops).
 */
function ReferralFields({ fields, onChange }: { fields: ReferralFieldValues; onChange(fields: ReferralFieldValues): void }) {
  const { t } = useTranslation();
  const dateId = useId();
  const doctorId = useId();
  const [shown, setShown] = useState(false);
  if (!shown)
    return (
      <button
        type="button"
        className="pp-link-button pp-att-referral-open"
        aria-expanded={false}
        onClick={() => {
          setShown(true);
          requestAnimationFrame(() => document.getElementById(dateId)?.focus());
        }}
      >
        {t('attachments.referral.open')}
      </button>
    );
  return (
    <div className="pp-att-referral-fields">
      <TextField
        id={dateId}
        name="referralDate"
        label={t('attachments.referral.date')}
        className="pp-input pp-input-short"
        value={fields.referralDate}
        problem={null}
        inputProps={{ type: 'date', max: new Date().toISOString().slice(0, 10) }}
        onChange={(referralDate) => onChange({ ...fields, referralDate })}
      />
      <TextField
        id={doctorId}
        name="referringDoctor"
        label={t('attachments.referral.doctor')}
        value={fields.referringDoctor}
        problem={null}
        inputProps={{ type: 'text', maxLength: 120, autoComplete: 'off' }}
        onChange={(referringDoctor) => onChange({ ...fields, referringDoctor })}
      />
    </div>
  );
}

/** How far the upload of one file has come. */
function UploadProgress({ fileName, percent }: { fileName: string; percent: number }) {
  const { t } = useTranslation();
  return (
    <div className="pp-att-progress">
      <label>
        <span>{t('attachments.uploading', { fileName })}</span>
        <progress max={100} value={percent} aria-label={t('attachments.uploadProgress', { fileName })}>
          {percent}%
        </progress>
      </label>
    </div>
  );
}

/** One document to add: its title, what is there, a file picker and a camera button; upload starts on pick (spec). */
const UploadSlot = observer(function UploadSlot({ store, slot, isReferral = false, title, description, uploadedFileName }: SlotProps) {
  const { t } = useTranslation();
  const hintId = useId();
  const problemId = useId();
  const [referral, setReferral] = useState<ReferralFieldValues>({ referralDate: '', referringDoctor: '' });
  const fileInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  const allowed = store.allowedTypes;
  const accept = allowed.map((type: UploadContentType) => UPLOAD_ACCEPT_ATTRIBUTE[type]).join(',');
  const uploading = store.uploading;
  const problem = store.problem?.slot === slot ? store.problem.problem : null;
  const busy = uploading !== null;
  const canPhoto = allowed.some((type) => type !== 'application/pdf');

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file picked again must fire change again.
    event.target.value = '';
    const fields = isReferral
      ? { referralDate: referral.referralDate || undefined, referringDoctor: referral.referringDoctor.trim() || undefined }
      : {};
    if (file) void store.pick(slot, file, fields);
  };

  const problemText = problem === null ? null : slotProblemText(t, problem, allowed);

  return (
    <li className="pp-att-slot" data-slot={slot}>
      <h3 className="pp-att-slot-title">{title}</h3>
      {description && <p className="pp-muted">{description}</p>}
      <p id={hintId} className={uploadedFileName ? 'pp-att-state pp-att-state-done' : 'pp-att-state'}>
        {uploadedFileName ? t('attachments.requested.uploaded', { fileName: uploadedFileName }) : t('attachments.requested.missing')}
      </p>
      {isReferral && <ReferralFields fields={referral} onChange={setReferral} />}
      <div className="pp-button-row">
        <Button
          variant={uploadedFileName ? 'secondary' : 'primary'}
          disabled={busy}
          aria-label={uploadedFileName ? t('attachments.replaceLabel', { title }) : t('attachments.chooseLabel', { title })}
          aria-describedby={problemText ? `${hintId} ${problemId}` : hintId}
          onClick={() => fileInput.current?.click()}
        >
          {uploadedFileName ? t('attachments.replace') : t('attachments.choose')}
        </Button>
        {canPhoto && (
          <Button
            variant="secondary"
            disabled={busy}
            aria-label={t('attachments.cameraLabel', { title })}
            onClick={() => cameraInput.current?.click()}
          >
            {t('attachments.camera')}
          </Button>
        )}
      </div>
      <input
        ref={fileInput}
        type="file"
        accept={accept}
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={onPick}
        data-testid={`file-${slot}`}
      />
      <input
        ref={cameraInput}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={onPick}
        data-testid={`camera-${slot}`}
      />
      {uploading?.slot === slot && <UploadProgress fileName={uploading.fileName} percent={uploading.percent} />}
      {problemText && (
        <p id={problemId} role="alert" className="pp-att-problem">
          {problemText}
        </p>
      )}
    </li>
  );
});

const UploadedList = observer(function UploadedList({ store }: { store: AttachmentsStore }) {
  const { t } = useTranslation();
  if (store.attachments.length === 0) return <p className="pp-muted">{t('attachments.list.empty')}</p>;
  return (
    <ul className="pp-att-list">
      {store.attachments.map((attachment) => (
        <li key={attachment.id}>
          <span className="pp-att-name">{attachment.fileName}</span>{' '}
          <span className="pp-muted">{attachment.documentType?.title ?? t('attachments.list.untyped')}</span>
          {attachment.scanStatus !== 'CLEAN' && <p className="pp-muted">{t('attachments.list.checking')}</p>}
          {attachment.referralWarningMessage && <p className="pp-att-problem">{attachment.referralWarningMessage}</p>}
          {attachment.referralWarning && store.isStaff && (
            <Button variant="secondary" disabled={store.busy} onClick={() => void store.acceptReferralDate(attachment.id)}>
              {t('attachments.referral.accept', { fileName: attachment.fileName })}
            </Button>
          )}
          <div className="pp-button-row">
            <Button variant="secondary" disabled={attachment.scanStatus !== 'CLEAN'} onClick={() => store.openViewer(attachment.id)}>
              {t('attachments.list.view', { fileName: attachment.fileName })}
            </Button>
            <button type="button" className="pp-link-button" onClick={() => store.openInfo(attachment.id)}>
              {t('attachments.list.info', { fileName: attachment.fileName })}
            </button>
            {store.isStaff && (
              <Button variant="danger" disabled={store.busy} onClick={() => store.askDelete(attachment.id)}>
                {t('attachments.list.delete', { fileName: attachment.fileName })}
              </Button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
});

const NO_EXAMS: readonly string[] = [];

export interface AttachmentsSectionProps {
  owner: AttachmentOwner;
  /** After an upload, replacement or delete: the page asks check-in readiness again and drops ?upload. */
  onChanged?: () => void;
  /** The page was opened to add a document (?upload): scroll here and focus the heading once loaded. */
  bringIntoView?: boolean;
  /** The booking flow's chosen exams (temporary base): their documents are asked for. */
  examSlugs?: readonly string[];
}

/**
 * The documents of a booking (docs/rules/attachments.md#the-web-app): the documents its exams ask
 * for, another document, the uploaded list, the viewer, the information dialog and staff's delete.
 * Loaded lazily with its texts (attachments-lazy.tsx).
 */
export const AttachmentsSection = observer(function AttachmentsSection({
  owner,
  onChanged,
  bringIntoView = false,
  examSlugs = NO_EXAMS,
}: AttachmentsSectionProps) {
  const root = useStores();
  const store = root.featureStore(attachmentsStoreOf);
  const { t } = useTranslation();
  const textsReady = useAttachmentsTexts(root.i18n.i18n, root.i18n.locale);
  const changed = useRef(onChanged);
  changed.current = onChanged;

  const exams = examSlugs.join(',');
  useEffect(() => {
    void store.open(owner, () => changed.current?.(), exams === '' ? [] : exams.split(','));
    return () => store.dispose();
  }, [store, owner.base, owner.bookingKey, exams]); // eslint-disable-line react-hooks/exhaustive-deps

  const response = store.response?.bookingKey === owner.bookingKey ? store.response : null;
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = textsReady && response !== null;
  useEffect(() => {
    if (!bringIntoView || !shown) return;
    heading.current?.scrollIntoView?.({ block: 'start' });
    heading.current?.focus();
  }, [bringIntoView, shown]);

  if (!textsReady) return null;
  return (
    <section className="pp-att" aria-labelledby="pp-att-title">
      <h2 id="pp-att-title" ref={heading} tabIndex={-1}>
        {t('attachments.title')}
      </h2>
      <p>{store.isStaff ? t('attachments.staffIntro') : t('attachments.intro')}</p>
      {store.notice && (
        <p role="status" className="pp-notice pp-notice-success">
          {noticeText(t, store.notice)}
        </p>
      )}
      {!response && (
        <PageLoadState
          failed={store.loadState === 'error'}
          errorText={t('attachments.loadError')}
          retryText={t('attachments.retry')}
          onRetry={() => void store.reload()}
        />
      )}
      {response && (
        <>
          <p className="pp-muted">
            {t('attachments.allowed', { types: allowedTypesText(store.allowedTypes), size: megabytes(response.limits.maxFileBytes) })}
          </p>
          <ul className="pp-att-slots">
            {response.documents.map((document) => (
              <UploadSlot
                key={document.documentTypeId}
                store={store}
                slot={document.documentTypeId}
                isReferral={document.documentTypeCode === 'REFERRAL'}
                title={document.documentType.title}
                description={document.documentType.description}
                uploadedFileName={document.uploadedDocument?.fileName ?? null}
              />
            ))}
            <UploadSlot
              store={store}
              slot={OTHER_SLOT}
              title={t('attachments.other.title')}
              description={t('attachments.other.description')}
              uploadedFileName={null}
            />
          </ul>
          <h3>{t('attachments.list.title')}</h3>
          <UploadedList store={store} />
        </>
      )}
      <AttachmentDialogs store={store} />
    </section>
  );
});

/** The documents uploaded while booking, named on the confirmation (they belong to the booking now). */
export const SentDocuments = observer(function SentDocuments() {
  const root = useStores();
  const store = root.featureStore(attachmentsStoreOf);
  const { t } = useTranslation();
  const textsReady = useAttachmentsTexts(root.i18n.i18n, root.i18n.locale);
  const sent = store.owner?.base === 'booking-keys' ? store.attachments : [];
  if (!textsReady || sent.length === 0) return null;
  return (
    <div className="pp-notice">
      <p>
        <strong>{t('attachments.sent')}</strong>
      </p>
      <ul>
        {sent.map((attachment) => (
          <li key={attachment.id}>
            {attachment.fileName} <span className="pp-muted">({attachment.documentType?.title ?? t('attachments.list.untyped')})</span>
          </li>
        ))}
      </ul>
    </div>
  );
});

export default AttachmentsSection;
