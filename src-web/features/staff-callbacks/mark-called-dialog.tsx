import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { CALLBACK_NOTE_MAX, type StaffCallback } from '@contract/api/callbacks';
import { StaffMarkDialog } from '../../components/staff-mark-dialog';
import type { StaffCallbacksStore } from './staff-callbacks-store';

/** "Mark called" with an optional note (what was agreed, a time booked); the note is kept on the request. */
export const MarkCalledDialog = observer(function MarkCalledDialog({ store }: { store: StaffCallbacksStore }) {
  const { t } = useTranslation();
  return (
    <StaffMarkDialog<StaffCallback>
      store={store}
      noteMax={CALLBACK_NOTE_MAX}
      texts={(item) => {
        const name = `${item.firstName} ${item.lastName}`;
        return {
          title: t('staffCallbacks.mark.title', { name }),
          text: t('staffCallbacks.mark.text', { name, phone: item.phone }),
          note: t('staffCallbacks.mark.note'),
          counter: (used, max) => t('staffCallbacks.mark.counter', { used, max }),
          cancel: t('staffCallbacks.mark.cancel'),
          confirm: t('staffCallbacks.mark.confirm'),
          saving: t('staffCallbacks.mark.saving'),
          unavailable: t('staffCallbacks.mark.unavailable'),
        };
      }}
    />
  );
});
