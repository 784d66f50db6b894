// What other areas may use of the documents area: the lazily loaded section (the rest loads with it).
export { LazyAttachmentsSection, LazyBookingDocuments, LazySentDocuments, UPLOAD_PARAM } from './attachments-lazy';
