/** What other modules and the app may use of results (docs/rules/results.md). */
export { createResultDelivery, type ResultDeliveryService } from './delivery';
export { registerResultRoutes } from './routes';
export { createPatientResults, PATIENT_IMAGE_LINK, PATIENT_IMAGE_LINK_TTL_MS, type PatientResultsService } from './patient-results';
export { createImageViewer, RESULTS_EXPIRED_URL, type ImageViewerService } from './image-viewer';
export { registerPatientResultRoutes } from './patient-routes';
/** A report PDF's route options and answer, the same for shared results and the quick report. */
export { reportPdfRoute, sendReportPdf } from './report-pdf';
export { createResultsRepository, type ReportRow } from './repository';
export { createReleaseNotices, RESULTS_READY_KIND, type ReleaseNotices } from './release-notices';
export { checkImageLink, mintReferrerImageLink, type CheckedImageLink, type ImageLinkHolder } from './image-links';
export { createReferrerNotice, REFERRER_REPORT_READY_KIND } from './referrer-notice';
export { createImageGeneration, demoGeneratedStudyUid, DEMO_GENERATION_MS, type ImageGenerationService } from './image-generation';
export { openReleasedReportPdf } from './machine-pdf';
export type { ReportPdfInput } from './report-document';

/** A report rendered from its text as a PDF (report-document.ts); pdfkit loads with the first one, not at start. */
export async function renderReportPdf(input: import('./report-document').ReportPdfInput): Promise<Buffer> {
  return (await import('./report-document')).renderReportPdf(input);
}
