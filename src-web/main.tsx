import './shell/shell.css';
import { showBootstrapError, start } from './start';

const container = document.getElementById('root');
if (container) {
  start(container).catch((error: unknown) => showBootstrapError(container, error));
}
