// Before any schema parses: no eval probe under the CSP.
import './platform/zod-config';
// Then the requests the first render waits for, so they start before the rest of the code runs.
import './platform/early-requests';
import './shell/shell.css';
import './components/form-fields.css';
import { showBootstrapError, start } from './start';

const container = document.getElementById('root');
if (container) {
  start(container).catch((error: unknown) => showBootstrapError(container, error));
}
