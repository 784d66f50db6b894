import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, MessageDialog } from '../../components/modal-dialog';
import { AttachmentViewer } from './attachment-viewer';
import type { AttachmentsStore } from './attachments-store';
import { DetailsList } from '../../components/details-list';

/** The one dialog open over the documents: the viewer, a document's information, staff's delete confirmation. */
export const AttachmentDialogs = observer(function AttachmentDialogs({ store }: { store: AttachmentsStore }) {
  const { t, i18n } = useTranslation();
  const dialog = store.dialog;
  if (dialog === null) return null;
  switch (dialog.kind) {
    case 'viewer':
      return <AttachmentViewer store={store} index={dialog.index} />;
    case 'info': {
      const attachment = store.attachment(dialog.id);
      if (attachment === null) return null;
      const rows: [string, string | null][] = [
        [t('attachments.info.fileName'), attachment.fileName],
        [t('attachments.info.type'), attachment.documentType?.title ?? t('attachments.list.untyped')],
        [t('attachments.info.description'), attachment.documentType?.description || null],
        [
          t('attachments.info.uploaded'),
          new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(attachment.uploadedAt)),
        ],
        [t('attachments.info.referralDate'), attachment.referralDate],
        [t('attachments.info.referringDoctor'), attachment.referringDoctor],
      ];
      return (
        <MessageDialog
          role="dialog"
          title={t('attachments.info.title')}
          closeText={t('attachments.info.close')}
          onClose={() => store.closeDialog()}
        >
          <DetailsList rows={rows} />
        </MessageDialog>
      );
    }
    case 'deleteConfirm': {
      const attachment = store.attachment(dialog.id);
      return (
        <ConfirmDialog
          title={t('attachments.delete.title')}
          text={t('attachments.delete.text', { fileName: attachment?.fileName ?? '' })}
          yes={t('attachments.delete.yes')}
          no={t('attachments.delete.no')}
          danger
          busy={store.busy}
          onYes={() => void store.confirmDelete()}
          onNo={() => store.closeDialog()}
        />
      );
    }
    case 'failed':
      return (
        <MessageDialog
          title={dialog.action === 'delete' ? t('attachments.delete.failedTitle') : t('attachments.referral.acceptFailedTitle')}
          closeText={t('attachments.delete.close')}
          onClose={() => store.closeDialog()}
        >
          <p>{dialog.message || t('attachments.delete.failed')}</p>
        </MessageDialog>
      );
  }
});
