import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigContext } from '../../../src-server/config';

// The traces' variables (src-server/config-tracing.ts): the standard OTLP names, read as the
// OpenTelemetry specification reads them.

const context: ConfigContext = { cwd: '/srv/portal', packageVersion: '1.2.3', gitShortHash: 'abc1234' };

function tracing(env: Record<string, string>): unknown {
  const result = parseConfig(env, context);
  return result.ok ? (result.config.tracing ?? null) : result.problems;
}

describe('the OTLP variables', () => {
  it('leave tracing off when no endpoint is set, whatever the service name', () => {
    expect(tracing({})).toBeNull();
    expect(tracing({ OTEL_SERVICE_NAME: 'portal-west' })).toBeNull();
  });

  it('append v1/traces to the base endpoint, keeping its path, and take the traces endpoint as written', () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' })).toEqual({
      url: 'http://otel-collector:4318/v1/traces',
      serviceName: 'radiology-portal',
    });
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example/otlp/', OTEL_SERVICE_NAME: 'portal-west' })).toEqual({
      url: 'https://collector.example/otlp/v1/traces',
      serviceName: 'portal-west',
    });
    expect(
      tracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom/traces',
      }),
    ).toEqual({ url: 'http://collector:4318/custom/traces', serviceName: 'radiology-portal' });
  });

  it('refuse what is not an http(s) URL, a URL with credentials, and a service name with spaces', () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toEqual([
      expect.stringMatching(/^- OTEL_EXPORTER_OTLP_ENDPOINT: must be an http/),
    ]);
    const withPassword = tracing({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:secret-token@collector.example/v1/traces' });
    expect(withPassword).toEqual([
      expect.stringMatching(/^- OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: must be an http\(s\) URL without user or password/),
    ]);
    expect(JSON.stringify(withPassword)).not.toContain('secret-token');
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SERVICE_NAME: 'Ada Lovelace' })).toEqual([
      expect.stringMatching(/^- OTEL_SERVICE_NAME: must be/),
    ]);
  });
});
