import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { timeLabel } from './chat-say';
import type { ChatStore } from './chat-store';

/** What will be sent, before "Send request" (it follows later changes: the store is the one truth). */
export const ChatSummary = observer(function ChatSummary({ store }: { store: ChatStore }) {
  const { t, i18n } = useTranslation();
  const { contact } = store;
  const birth = contact.dateOfBirth ? new Date(`${contact.dateOfBirth}T00:00:00`).toLocaleDateString(i18n.language) : '';
  const referral =
    store.referral === 'uploaded'
      ? t('chat.summary.referralUploaded')
      : store.referral === 'bringIt'
        ? t('chat.summary.referralBringIt')
        : t('chat.summary.referralNone');
  const rows: Array<[string, string]> = [
    [t('chat.summary.exam'), store.exam?.name ?? ''],
    [t('chat.summary.clinic'), store.clinic?.name ?? t('chat.summary.anyClinic')],
    [t('chat.summary.times'), store.times.map((time) => timeLabel(t, time)).join(', ')],
    [t('chat.summary.referral'), referral],
    [t('chat.summary.name'), [contact.title, contact.firstName, contact.lastName].filter(Boolean).join(' ')],
    [t('chat.summary.dateOfBirth'), birth],
    [t('chat.summary.email'), contact.email ?? ''],
    [t('chat.summary.phone'), contact.contactNumber ?? ''],
    [t('chat.summary.postcode'), contact.postalCode ?? ''],
  ];
  if (contact.medicareNumber) rows.push([t('chat.summary.medicare'), contact.medicareNumber]);
  return (
    <dl className="pp-chat-summary">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
});
