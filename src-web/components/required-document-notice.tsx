import { useTranslation } from 'react-i18next';

/**
 * The document a questionnaire outcome (SET_DOCUMENT_TYPE) asked the patient to bring,
 * shown with the booking details, the confirmation and the appointment or booking-request page.
 */
export function RequiredDocumentNotice({ document }: { document: { title: string; description: string } }) {
  const { t } = useTranslation();
  return (
    <div className="pp-notice" data-required-document>
      <p>
        <strong>{t('booking.requiredDocument', { title: document.title })}</strong>
      </p>
      {document.description && <p>{document.description}</p>}
    </div>
  );
}
