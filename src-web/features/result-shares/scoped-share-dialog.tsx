import { AntdScope } from '../../components/antd-scope';
import ShareResultsDialog, { type ShareResultsDialogProps } from './share-results-dialog';

/**
 * The dialog inside antd's provider, as one lazily loaded module: antd's code downloads when the
 * dialog first opens, never with the result page that offers the button.
 */
export default function ScopedShareResultsDialog(props: ShareResultsDialogProps) {
  return (
    <AntdScope>
      <ShareResultsDialog {...props} />
    </AntdScope>
  );
}
