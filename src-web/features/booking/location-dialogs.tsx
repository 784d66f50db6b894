import { observer } from 'mobx-react-lite';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/use-stores';
import { ModalDialog } from '../../components/modal-dialog';
import { Button } from '../../components/button';

/** Opens only after "Use my location" failed (docs/rules/booking.md#location): offers the postcode. */
export const UnableToLocateDialog = observer(function UnableToLocateDialog() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const location = booking.placeAndTime.location;
  return (
    <ModalDialog
      title={t('booking.location.unableTitle')}
      onDismiss={() => location.closeUnableToLocate()}
      actions={
        <>
          <Button onClick={() => location.openPostcodeLocator()}>{t('booking.location.usePostcode')}</Button>
          <Button variant="secondary" onClick={() => location.closeUnableToLocate()}>
            {t('booking.location.showAll')}
          </Button>
        </>
      }
    >
      <p>{t('booking.location.unableText')}</p>
    </ModalDialog>
  );
});

export const PostcodeLocatorDialog = observer(function PostcodeLocatorDialog() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const location = booking.placeAndTime.location;
  const [postcode, setPostcode] = useState('');
  const inputId = useId();
  const errorId = useId();
  const problem = location.postcodeProblem;
  const formId = useId();
  return (
    <ModalDialog
      title={t('booking.location.postcodeTitle')}
      onDismiss={() => location.closePostcodeLocator()}
      actions={
        <>
          <Button type="submit" form={formId} disabled={location.postcodeState === 'loading'}>
            {t('booking.location.find')}
          </Button>
          <Button variant="secondary" onClick={() => location.closePostcodeLocator()}>
            {t('action.cancel')}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void location.locatePostcode(postcode);
        }}
      >
        <div className="pp-field">
          <label htmlFor={inputId}>{t('booking.location.postcode')}</label>
          <input
            id={inputId}
            className="pp-input pp-input-short"
            inputMode="numeric"
            autoComplete="postal-code"
            value={postcode}
            aria-invalid={problem !== null}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => setPostcode(event.target.value)}
          />
          {problem && (
            <p id={errorId} className="pp-field-error">
              {problem === 'unknown' ? t('booking.location.postcodeUnknown') : t('booking.location.postcodeInvalid')}
            </p>
          )}
        </div>
      </form>
    </ModalDialog>
  );
});
