import { observer } from 'mobx-react-lite';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/use-stores';
import { ModalDialog } from '../../components/modal-dialog';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';

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
        <TextField
          id={inputId}
          name="postcode"
          label={t('booking.location.postcode')}
          className="pp-input pp-input-short"
          value={postcode}
          problem={
            problem === null ? null : problem === 'unknown' ? t('booking.location.postcodeUnknown') : t('booking.location.postcodeInvalid')
          }
          inputProps={{ inputMode: 'numeric', autoComplete: 'postal-code' }}
          onChange={setPostcode}
        />
      </form>
    </ModalDialog>
  );
});
