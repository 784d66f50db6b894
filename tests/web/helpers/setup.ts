import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { closeApiServers } from './api-server';

// findBy and waitFor wait 1 s by default; on a loaded CI machine, with the server suites running
// beside these, antd's first render alone can take longer. A test that passes never waits this long.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no layout, so no scrolling; the router's ScrollRestoration calls it on navigation.
window.scrollTo = () => undefined;

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(async () => {
  cleanup();
  await closeApiServers();
  sessionStorage.clear();
  localStorage.clear();
  // Like the storages, no test's cookies reach the next (the banner's, the kiosk's).
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
  // jsdom's defaults; renderApp({ viewport }) changes them for one test.
  window.innerWidth = 1024;
  window.innerHeight = 768;
  window.history.replaceState(null, '', '/');
  document.documentElement.className = '';
  document.body.className = '';
});
