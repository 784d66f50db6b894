import { describe, expect, it } from 'vitest';
import { RESULTS_EXPIRED_PATH } from '@contract/api/results';
import { isEmbeddedPath, paths } from '../../src-web/paths';

describe('paths', () => {
  it('puts a path under /iframe once, whatever it was', () => {
    expect(paths.embedded('/')).toBe('/iframe');
    expect(paths.embedded('/about')).toBe('/iframe/about');
    expect(paths.embedded('/iframe/about')).toBe('/iframe/about');
    expect(isEmbeddedPath('/iframe?x=1')).toBe(true);
    expect(isEmbeddedPath('/iframes')).toBe(false);
  });

  it('keeps a path in the layout of the page it is followed from', () => {
    expect(paths.inLayoutOf('/iframe/referrer/quick-report?imsec=a', '/deny?resultsExpired=true')).toBe('/iframe/deny?resultsExpired=true');
    expect(paths.inLayoutOf('/referrer/quick-report?imsec=a', '/deny?resultsExpired=true')).toBe('/deny?resultsExpired=true');
    expect(paths.inLayoutOf('/iframe/results/shared', '/iframe/deny')).toBe('/iframe/deny');
  });

  it('sends an expired link to the deny page the server names too', () => {
    expect(paths.resultsExpired()).toBe(RESULTS_EXPIRED_PATH);
    expect(RESULTS_EXPIRED_PATH).toBe('/deny?resultsExpired=true');
  });
});
