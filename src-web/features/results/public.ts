// What other areas may use of the results area (the shared results page shows reports the same way).
export { browserWindowOf, ImageOpener } from './image-opener';
export type { BrowserWindow, ImageLinkSource, ImageOpenerDeps, ImagesProblem } from './image-opener';
export { ExamFactItems, ImagesAction, ReportFactItems, ReportPdfLinks, ReportText, useImagesLabel } from './report-parts';
export { readImagesReturn, type ImagesReturn } from './images-return';
export { ReadableReport } from './readable-report';
