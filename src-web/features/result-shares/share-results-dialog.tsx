import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useStores } from '../../stores/use-stores';
import {
  CONTACT_NAME_MAX_LENGTH,
  resultSharingOf,
  type ShareDialogStore,
  type ShareField,
  type ShareFormProblem,
  type ShareType,
} from './share-dialog-store';
import { ShareList } from './share-list';
import './result-sharing.css';

/** antd names each field's input `<form name>_<field>`: its label, help and extra hang off that id. */
const FORM_NAME = 'share-results';
export const shareFieldId = (field: ShareField): string => `${FORM_NAME}_${field}`;

/** Dialog body heights (docs/rules/results.md#share-dialog-web): 450 px on a phone, 600 px otherwise. */
export const DIALOG_BODY_HEIGHT = { mobile: 450, other: 600 } as const;

export interface ShareResultsDialogProps {
  bookingKey: string;
  /** What is shared: this result, or (from the patient portal) the whole history. */
  type: ShareType;
  open: boolean;
  onClose: () => void;
  /** Runs once the dialog has closed (after its animation): where focus goes back to. */
  afterClose?: () => void;
}

/** The text of a field's problem; every key literal, so the catalogue check sees each. */
function problemText(t: TFunction, store: ShareDialogStore, field: ShareField): string | null {
  const problem = store.visibleProblem(field);
  if (problem === null) return null;
  if (problem === 'controlCharacters') return t('resultSharing.errors.controlCharacters');
  if (field === 'note') return t('resultSharing.errors.noteTooLong', { count: store.noteMaxLength });
  if (field === 'contactName') return t('resultSharing.errors.contactNameTooLong', { count: CONTACT_NAME_MAX_LENGTH });
  switch (problem) {
    case 'required':
      return t('resultSharing.errors.required');
    case 'email':
      return t('resultSharing.errors.email');
    case 'invalidContact':
    case 'tooLong':
      return t('resultSharing.errors.invalid_contact_details');
  }
}

function formProblemText(t: TFunction, problem: ShareFormProblem): string {
  switch (problem) {
    case 'historyNotAllowed':
      return t('resultSharing.errors.historyNotAllowed');
    case 'forbidden':
      return t('resultSharing.errors.forbidden');
    case 'notAvailable':
      return t('resultSharing.errors.notAvailable');
    case 'tooMany':
      return t('resultSharing.errors.tooMany');
    case 'general':
      return t('resultSharing.errors.general');
  }
}

/**
 * One field on antd's Form.Item: the label, the hint or counter (extra) and the problem (help) are
 * tied to the input by aria-describedby. The value lives in the store, not in antd's form state:
 * getValueProps hands the store's value to the input on every render.
 */
const ShareFormField = observer(function ShareFormField({
  store,
  field,
  label,
  extra,
  required = false,
  children,
}: {
  store: ShareDialogStore;
  field: ShareField;
  label: string;
  extra?: ReactNode;
  required?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const problem = problemText(t, store, field);
  return (
    <Form.Item
      name={field}
      label={label}
      required={required}
      extra={extra}
      validateStatus={problem === null ? undefined : 'error'}
      help={problem ?? undefined}
      getValueProps={() => ({ value: store[field] })}
    >
      {children}
    </Form.Item>
  );
});

const ShareForm = observer(function ShareForm({ store }: { store: ShareDialogStore }) {
  const { t } = useTranslation();
  const sms = store.smsEnabled;
  const invalid = (field: ShareField) => (store.visibleProblem(field) === null ? undefined : true);
  const onFinish = async () => {
    const shared = await store.submit();
    const first = store.firstInvalidField;
    if (!shared && first !== null) document.getElementById(shareFieldId(first))?.focus();
  };
  return (
    <section aria-labelledby="pp-share-form-heading">
      <h3 id="pp-share-form-heading">{t('resultSharing.form.heading')}</h3>
      <Form name={FORM_NAME} layout="vertical" requiredMark noValidate onFinish={() => void onFinish()} className="pp-share-form">
        <ShareFormField
          store={store}
          field="contactDetails"
          required
          label={sms ? t('resultSharing.form.contactEmailOrPhone') : t('resultSharing.form.contactEmail')}
          extra={sms ? t('resultSharing.form.contactHintEmailOrPhone') : t('resultSharing.form.contactHintEmail')}
        >
          <Input
            // Text, not type=email: the browser's own e-mail check would stop the form before ours speaks.
            type="text"
            inputMode={sms ? 'text' : 'email'}
            autoComplete="off"
            spellCheck={false}
            maxLength={254}
            aria-invalid={invalid('contactDetails')}
            onChange={(event) => store.setField('contactDetails', event.target.value)}
            onBlur={() => store.touch('contactDetails')}
          />
        </ShareFormField>
        <ShareFormField store={store} field="contactName" label={t('resultSharing.form.contactName')}>
          <Input
            autoComplete="off"
            maxLength={CONTACT_NAME_MAX_LENGTH}
            aria-invalid={invalid('contactName')}
            onChange={(event) => store.setField('contactName', event.target.value)}
            onBlur={() => store.touch('contactName')}
          />
        </ShareFormField>
        <ShareFormField
          store={store}
          field="note"
          label={t('resultSharing.form.note')}
          extra={t('resultSharing.form.noteCounter', { used: store.note.length, count: store.noteMaxLength })}
        >
          <Input.TextArea
            rows={3}
            maxLength={store.noteMaxLength}
            aria-invalid={invalid('note')}
            onChange={(event) => store.setField('note', event.target.value)}
            onBlur={() => store.touch('note')}
          />
        </ShareFormField>
        {store.formProblem !== null && (
          <p role="alert" className="pp-share-error">
            {formProblemText(t, store.formProblem)}
          </p>
        )}
      </Form>
      {/* Always in the page, so the line is announced when it appears. */}
      <div role="status" className="pp-share-status">
        {store.success !== null && (
          <p className="pp-share-success">
            {store.success.channel === 'PHONE'
              ? t('resultSharing.success.PHONE', { contact: store.success.contact })
              : t('resultSharing.success.EMAIL', { contact: store.success.contact })}
          </p>
        )}
      </div>
    </section>
  );
});

const ShareListArea = observer(function ShareListArea({ store }: { store: ShareDialogStore }) {
  const { t } = useTranslation();
  if (store.loadState === 'error') {
    return (
      <div role="alert" className="pp-share-load-error">
        <p>{t('resultSharing.loadError')}</p>
        <Button variant="secondary" onClick={() => void store.load()}>
          {t('resultSharing.retry')}
        </Button>
      </div>
    );
  }
  if (store.list === null) return <p role="status">{t('resultSharing.loading')}</p>;
  return <ShareList store={store} />;
});

/**
 * The share-results dialog (docs/rules/results.md#share-dialog-web): the create form, the success line, and the shares with
 * revoke and their access log. Its body is 450 px high on a phone and 600 px otherwise; the list
 * scrolls above 450 px. It opens with the focus on the contact field; on close antd gives the focus
 * back to what had it (and afterClose may place it).
 */
const ShareResultsDialog = observer(function ShareResultsDialog({ bookingKey, type, open, onClose, afterClose }: ShareResultsDialogProps) {
  const root = useStores();
  const { t } = useTranslation();
  const store = root.featureStore(resultSharingOf).dialog(bookingKey, type);
  const mobile = root.ui.isMobile;

  useEffect(() => {
    if (open) void store.open();
  }, [open, store]);

  return (
    <Modal
      open={open}
      onCancel={onClose}
      afterClose={afterClose}
      afterOpenChange={(opened) => {
        // After the opening animation; a patient who already moved into the dialog keeps their place.
        if (!opened || document.activeElement?.closest('.pp-share-dialog .ant-modal-body')) return;
        document.getElementById(shareFieldId('contactDetails'))?.focus();
      }}
      title={<h2 className="pp-share-title">{type === 'HISTORY' ? t('resultSharing.titleHistory') : t('resultSharing.titleResult')}</h2>}
      width={640}
      closable={{ 'aria-label': t('resultSharing.close') }}
      className={mobile ? 'pp-share-dialog pp-share-dialog-mobile' : 'pp-share-dialog'}
      styles={{ body: { height: mobile ? DIALOG_BODY_HEIGHT.mobile : DIALOG_BODY_HEIGHT.other, overflowY: 'auto' } }}
      // Share sits in the footer, always in view (a 390x844 phone included) while the body scrolls;
      // it submits the form through the form attribute, so Enter in a field still sends it.
      footer={
        <div className="pp-share-footer">
          <Button variant="secondary" onClick={onClose}>
            {t('resultSharing.close')}
          </Button>
          <Button type="submit" form={FORM_NAME} disabled={!store.canSubmit}>
            {store.saving ? t('resultSharing.form.submitting') : t('resultSharing.form.submit')}
          </Button>
        </div>
      }
    >
      <p className="pp-share-intro">{type === 'HISTORY' ? t('resultSharing.introHistory') : t('resultSharing.introResult')}</p>
      <ShareForm store={store} />
      <ShareListArea store={store} />
    </Modal>
  );
});

export default ShareResultsDialog;
