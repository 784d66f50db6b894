// What other areas may use of result sharing: the dialog (mount it where the result is shown) and
// a button that opens it. Both load antd and the dialog's code only when it first opens.
export { ShareResultsButton, ShareResultsDialog } from './share-results-entry';
export type { ShareResultsDialogProps } from './share-results-dialog';
