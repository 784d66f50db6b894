import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/button';
import { ModalDialog } from '../../components/modal-dialog';
import { ZoomableImage } from '../../components/zoomable-image';
import type { AttachmentsStore } from './attachments-store';

/** The attachment viewer carousel: one document at a time, previous and next, with its caption. */
export const AttachmentViewer = observer(function AttachmentViewer({ store, index }: { store: AttachmentsStore; index: number }) {
  const { t } = useTranslation();
  const attachment = store.attachments[index];
  if (!attachment) return null;
  const total = store.attachments.length;
  const title = attachment.documentType?.title ?? t('attachments.list.untyped');
  return (
    <ModalDialog
      wide
      title={t('attachments.viewer.title')}
      onDismiss={() => store.closeDialog()}
      actions={
        <>
          {total > 1 && (
            <>
              <Button variant="secondary" onClick={() => store.step(-1)}>
                {t('attachments.viewer.previous')}
              </Button>
              <Button variant="secondary" onClick={() => store.step(1)}>
                {t('attachments.viewer.next')}
              </Button>
            </>
          )}
          <Button onClick={() => store.closeDialog()}>{t('attachments.viewer.close')}</Button>
        </>
      }
    >
      <p role="status" className="pp-muted">
        {t('attachments.viewer.position', { current: index + 1, total })}
      </p>
      <figure className="pp-att-figure">
        {attachment.scanStatus !== 'CLEAN' ? (
          <p>{t('attachments.viewer.checking')}</p>
        ) : attachment.contentType === 'application/pdf' ? (
          <div>
            <p>{t('attachments.viewer.pdf')}</p>
            <div className="pp-button-row">
              <ButtonLink href={store.fileUrl(attachment.viewUrl)} target="_blank" rel="noopener noreferrer">
                {t('attachments.viewer.open', { fileName: attachment.fileName })}
              </ButtonLink>
              <ButtonLink variant="secondary" href={store.fileUrl(attachment.downloadUrl)} download={attachment.fileName}>
                {t('attachments.viewer.download', { fileName: attachment.fileName })}
              </ButtonLink>
            </div>
          </div>
        ) : (
          <ZoomableImage
            key={attachment.id}
            src={store.fileUrl(attachment.viewUrl)}
            alt={`${title}: ${attachment.fileName}`}
            classPrefix="pp-att"
            labels={{
              zoomIn: t('attachments.viewer.zoomIn'),
              zoomOut: t('attachments.viewer.zoomOut'),
              reset: t('attachments.viewer.reset'),
              tools: t('attachments.viewer.zoomTools'),
              hint: t('attachments.viewer.hint'),
            }}
          />
        )}
        <figcaption>
          <strong>{title}</strong>
          {attachment.documentType?.description && <span className="pp-muted"> {attachment.documentType.description}</span>}
        </figcaption>
      </figure>
    </ModalDialog>
  );
});
