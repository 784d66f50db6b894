import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangeRefusal } from '@contract/api/appointments';
import { SafeHtml } from '../../components/safe-html';
import { TextField } from '../../components/text-field';
import { DETAILS_FIELDS, type AppointmentStore, type DetailsField } from './appointment-store';
import { ConfirmDialog, MessageDialog, ModalDialog } from '../../components/modal-dialog';
import { Button } from '../../components/button';
import { NoteField } from '../../components/note-field';

/** The reschedule refusal's title and text (docs/rules/appointments.md#cut-off). */
export function rescheduleRefusal(t: TFunction, reason: ChangeRefusal, priorMinutes: number): { title: string; text: string } {
  switch (reason) {
    case 'WALK_IN':
      return { title: t('message.reschedule_with_walk_in_not_allowed'), text: t('message.reschedule_walk_in') };
    case 'APPOINTMENT_CANCELLED':
      return { title: t('message.reschedule_not_allowed'), text: t('message.reschedule_cancelled_appts') };
    case 'PRIOR_MINUTES':
      return { title: t('message.reschedule_not_allowed'), text: t('message.reschedule_prior_minutes', { count: hoursOf(priorMinutes) }) };
    case 'OTHER':
      return { title: t('message.reschedule_not_allowed'), text: t('message.reschedule_not_allowed_message') };
  }
}

/** Whole hours when the limit is a whole number of hours (1440 minutes: 24 hours). */
function hoursOf(minutes: number): number {
  return minutes % 60 === 0 ? minutes / 60 : Number((minutes / 60).toFixed(1));
}

function detailLabel(t: TFunction, field: DetailsField): string {
  switch (field) {
    case 'firstName':
      return t('appointment.details.firstName');
    case 'lastName':
      return t('appointment.details.lastName');
    case 'dateOfBirth':
      return t('appointment.details.dateOfBirth');
    case 'email':
      return t('appointment.details.email');
    case 'contactNumber':
      return t('appointment.details.contactNumber');
    case 'postcode':
      return t('appointment.details.postcode');
    case 'note':
      return t('appointment.details.note');
  }
}

const INPUT_TYPE: Record<DetailsField, string> = {
  firstName: 'text',
  lastName: 'text',
  dateOfBirth: 'date',
  email: 'email',
  contactNumber: 'tel',
  postcode: 'text',
  note: 'text',
};

const AUTOCOMPLETE: Record<DetailsField, string> = {
  firstName: 'given-name',
  lastName: 'family-name',
  dateOfBirth: 'bday',
  email: 'email',
  contactNumber: 'tel-national',
  postcode: 'postal-code',
  note: 'off',
};

const CancelReasonDialog = observer(function CancelReasonDialog({ store }: { store: AppointmentStore }) {
  const { t } = useTranslation();
  const noteId = useId();
  const errorId = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.cancellation.submitCancel();
  };
  return (
    <ModalDialog
      title={t('appointment.cancel.reasonTitle')}
      onDismiss={() => store.closeDialog()}
      actions={
        <>
          <Button variant="danger" type="submit" form="pp-cancel-reason-form" disabled={store.busy}>
            {t('appointment.cancel.submit')}
          </Button>
          <Button variant="secondary" onClick={() => store.closeDialog()}>
            {t('appointment.cancel.keep')}
          </Button>
        </>
      }
    >
      <form id="pp-cancel-reason-form" noValidate onSubmit={onSubmit}>
        <fieldset className="pp-field" aria-describedby={store.cancellation.cancelReasonMissing ? errorId : undefined}>
          <legend>{t('appointment.cancel.reasonLabel')}</legend>
          {store.cancellation.cancelReasons.map((label) => (
            <label key={label} className="pp-radio">
              <input
                type="radio"
                name="cancel-reason"
                value={label}
                checked={store.cancellation.cancelReason === label}
                onChange={() => store.cancellation.setCancelReason(label)}
              />{' '}
              {label}
            </label>
          ))}
          {store.cancellation.cancelReasonMissing && (
            <p id={errorId} className="pp-field-error" role="alert">
              {t('appointment.cancel.reasonRequired')}
            </p>
          )}
        </fieldset>
        <NoteField
          id={noteId}
          label={t('appointment.cancel.noteLabel')}
          rows={3}
          maxLength={500}
          value={store.cancellation.cancelNote}
          onChange={(note) => store.cancellation.setCancelNote(note)}
        />
      </form>
    </ModalDialog>
  );
});

const ConsentDialog = observer(function ConsentDialog({ store }: { store: AppointmentStore }) {
  const { t } = useTranslation();
  const nameId = useId();
  const agreeId = useId();
  const problemId = useId();
  const form = store.consent.openConsentForm;
  if (!form) return null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.signConsent();
  };
  return (
    <ModalDialog
      wide
      title={form.title}
      onDismiss={() => store.closeDialog()}
      actions={
        <>
          {!form.signed && (
            <Button type="submit" form="pp-consent-form" disabled={store.busy}>
              {t('appointment.consent.save')}
            </Button>
          )}
          <Button variant="secondary" onClick={() => store.closeDialog()}>
            {t('action.close')}
          </Button>
        </>
      }
    >
      <SafeHtml html={form.html} className="pp-rich-text pp-appt-consent-text" />
      {form.signed ? (
        <p className="pp-notice pp-notice-success">{t('appointment.consent.signed', { name: form.signedName ?? '' })}</p>
      ) : (
        <form id="pp-consent-form" noValidate onSubmit={onSubmit}>
          <TextField
            id={nameId}
            name="signedName"
            label={t('appointment.consent.nameLabel')}
            value={store.consent.signedName}
            // The problem is said once under the whole form, for the name or the box.
            problem={null}
            alsoDescribedBy={store.consent.consentProblem === 'name' ? problemId : null}
            inputProps={{ autoComplete: 'name', maxLength: 200 }}
            onChange={(value) => store.consent.setSignedName(value)}
          />
          <div className="pp-field pp-checkbox">
            <input
              id={agreeId}
              type="checkbox"
              checked={store.consent.agreed}
              aria-invalid={store.consent.consentProblem === 'agree'}
              aria-describedby={store.consent.consentProblem === 'agree' ? problemId : undefined}
              onChange={(event) => store.consent.setAgreed(event.target.checked)}
            />
            <label htmlFor={agreeId}>{t('appointment.consent.agree')}</label>
          </div>
          {store.consent.consentProblem && (
            <p id={problemId} className="pp-field-error" role="alert">
              {store.consent.consentProblem === 'name' ? t('appointment.consent.nameRequired') : t('appointment.consent.agreeRequired')}
            </p>
          )}
        </form>
      )}
    </ModalDialog>
  );
});

const DetailsChangeDialog = observer(function DetailsChangeDialog({ store }: { store: AppointmentStore }) {
  const { t } = useTranslation();
  const emptyId = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.detailsChange.submitDetailsChange();
  };
  return (
    <ModalDialog
      title={t('appointment.details.title')}
      onDismiss={() => store.closeDialog()}
      actions={
        <>
          <Button type="submit" form="pp-details-form" disabled={store.busy}>
            {t('appointment.details.submit')}
          </Button>
          <Button variant="secondary" onClick={() => store.closeDialog()}>
            {t('action.cancel')}
          </Button>
        </>
      }
    >
      <p>{t('appointment.details.intro')}</p>
      <form id="pp-details-form" noValidate onSubmit={onSubmit} aria-describedby={store.detailsChange.detailsEmpty ? emptyId : undefined}>
        {DETAILS_FIELDS.map((field) => (
          <div key={field} className="pp-field">
            <label htmlFor={`pp-details-${field}`}>{detailLabel(t, field)}</label>
            {field === 'note' ? (
              <textarea
                id={`pp-details-${field}`}
                className="pp-input"
                rows={3}
                maxLength={1000}
                value={store.detailsChange.details.note}
                onChange={(event) => store.detailsChange.setDetail('note', event.target.value)}
              />
            ) : (
              <input
                id={`pp-details-${field}`}
                className="pp-input"
                type={INPUT_TYPE[field]}
                autoComplete={AUTOCOMPLETE[field]}
                inputMode={field === 'contactNumber' || field === 'postcode' ? 'numeric' : undefined}
                value={store.detailsChange.details[field]}
                onChange={(event) => store.detailsChange.setDetail(field, event.target.value)}
              />
            )}
          </div>
        ))}
        {store.detailsChange.detailsEmpty && (
          <p id={emptyId} className="pp-field-error" role="alert">
            {t('appointment.details.empty')}
          </p>
        )}
      </form>
    </ModalDialog>
  );
});

/** Consent forms wait to be signed: sign now, or later. */
const ConsentNotificationDialog = observer(function ConsentNotificationDialog({ store }: { store: AppointmentStore }) {
  const { t } = useTranslation();
  const first = store.consent.unsignedConsentForms[0];
  return (
    <ModalDialog
      title={t('appointment.consent.notificationTitle')}
      onDismiss={() => store.closeDialog()}
      actions={
        <>
          {first && <Button onClick={() => store.consent.openConsent(first.id)}>{t('appointment.consent.signNow')}</Button>}
          <Button variant="secondary" onClick={() => store.closeDialog()}>
            {t('appointment.consent.later')}
          </Button>
        </>
      }
    >
      <p>{t('appointment.consent.notificationText', { count: store.consent.unsignedConsentForms.length })}</p>
    </ModalDialog>
  );
});

/** The change of details could not be sent: try again, or close. */
function DetailsChangeErrorDialog({ store, message }: { store: AppointmentStore; message: string | null | undefined }) {
  const { t } = useTranslation();
  return (
    <ModalDialog
      role="alertdialog"
      title={t('appointment.details.errorTitle')}
      onDismiss={() => store.closeDialog()}
      actions={
        <>
          <Button onClick={() => store.detailsChange.backToDetailsChange()}>{t('appointment.details.tryAgain')}</Button>
          <Button variant="secondary" onClick={() => store.closeDialog()}>
            {t('action.close')}
          </Button>
        </>
      }
    >
      <p>{message || t('appointment.details.errorDefault')}</p>
    </ModalDialog>
  );
}

/** Every dialog of the appointment page; the store says which one is open. */
export const AppointmentDialogs = observer(function AppointmentDialogs({ store }: { store: AppointmentStore }) {
  const { t } = useTranslation();
  const dialog = store.dialog;
  if (!dialog) return null;
  const close = () => store.closeDialog();

  switch (dialog.kind) {
    case 'cancelNotAllowed':
      return (
        <MessageDialog title={t('message.cancel_not_allowed')} closeText={t('action.close')} onClose={close}>
          <p>{t('message.cancel_prior_minutes', { count: hoursOf(dialog.priorMinutes) })}</p>
        </MessageDialog>
      );
    case 'cancelConfirm':
      return (
        <ConfirmDialog
          title={t('appointment.cancel.confirmTitle')}
          text={t('appointment.cancel.confirmText')}
          yes={t('appointment.yes')}
          no={t('appointment.no')}
          onYes={() => void store.cancellation.confirmCancel()}
          onNo={close}
          busy={store.busy}
          danger
        />
      );
    case 'cancelReason':
      return <CancelReasonDialog store={store} />;
    case 'rescheduleNotAllowed': {
      const { title, text } = rescheduleRefusal(t, dialog.reason, dialog.priorMinutes);
      return (
        <MessageDialog title={title} closeText={t('action.close')} onClose={close}>
          <p>{text}</p>
        </MessageDialog>
      );
    }
    case 'requestRescheduleConfirm':
      return (
        <ConfirmDialog
          title={t('appointment.requestReschedule.title')}
          text={t('appointment.requestReschedule.text')}
          yes={t('appointment.yes')}
          no={t('appointment.no')}
          onYes={() => void store.rescheduling.requestReschedule()}
          onNo={close}
          busy={store.busy}
        />
      );
    case 'consent':
      return <ConsentDialog store={store} />;
    case 'consentNotification':
      return <ConsentNotificationDialog store={store} />;
    case 'detailsChange':
      return <DetailsChangeDialog store={store} />;
    case 'detailsChangeSuccess':
      return (
        <MessageDialog role="dialog" title={t('appointment.details.successTitle')} closeText={t('action.close')} onClose={close}>
          <p>{t('appointment.details.successText')}</p>
        </MessageDialog>
      );
    case 'detailsChangeError':
      return <DetailsChangeErrorDialog store={store} message={dialog.message} />;
    case 'error':
      return (
        <MessageDialog title={t('appointment.errorTitle')} closeText={t('action.close')} onClose={close}>
          <p>{dialog.message || t('appointment.errorDefault')}</p>
        </MessageDialog>
      );
  }
});
