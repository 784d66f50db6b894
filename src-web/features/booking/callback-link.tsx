import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../paths';
import { usePortalHref } from '../../shell/embedded';
import { useStores } from '../../stores/use-stores';

/**
 * "Ask us to call you" for a patient the flow could not help (no time suits them, the booking
 * failed): a plain link to /callback with the first chosen exam, so the call centre knows what
 * they were booking (docs/rules/callbacks.md#the-patients-page). Not for a staff booking (the
 * staff member is the call centre) nor the kiosk (nothing there leaves the flow).
 */
export const CallbackLink = observer(function CallbackLink() {
  const { booking, ui } = useStores();
  const { t } = useTranslation();
  const href = usePortalHref();
  if (booking.staffBooking || ui.kiosk) return null;
  const exam = booking.examChoice.selectedSlugs[0];
  const to = paths.callback(exam);
  return (
    <p className="pp-callback-hint">
      {t('booking.callback.lead')} <Link to={href(to)}>{t('booking.callback.link')}</Link>
    </p>
  );
});
