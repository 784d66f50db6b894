import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestServer, createLogCollector, testConfig } from '../helpers/build-server';
import { useTestDatabase } from '../helpers/test-app';
import { LIAM } from '../route-access-matrix';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver';

// Without an OTLP endpoint (src-server/platform/tracing): the OpenTelemetry module is never
// imported, and a collector listening nearby hears nothing (tests/server/built-server.test.ts
// checks the bundled server's start). With one that refuses spans: one warning, and the server
// still closes cleanly.

const loaded = vi.hoisted(() => ({ otel: 0 }));
vi.mock('../../../src-server/platform/tracing/otel', async (importOriginal) => {
  loaded.otel += 1;
  return importOriginal();
});

describe('tracing off, and a collector that refuses', () => {
  let receiver: OtlpReceiver;
  const database = useTestDatabase();

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('loads no OpenTelemetry code and sends nothing', async () => {
    const server = await buildTestServer({ db: database.db, configFor: (dataDir) => testConfig({ DATA_DIR: dataDir }) });
    for (const url of ['/api/health', '/api/booking/clinics', '/api/appointments/DQZGrZ3wpC5qCgHhYxQeMw']) await server.app.inject({ url });
    await server.close();
    expect(loaded.otel).toBe(0);
    expect(receiver.requests).toEqual([]);
  });

  it('loads it once configured (the check above can see a load)', async () => {
    const server = await buildTestServer({
      db: database.db,
      configFor: (dataDir) => testConfig({ DATA_DIR: dataDir, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` }),
    });
    await server.app.inject({ url: '/api/health' });
    await server.close();
    expect(loaded.otel).toBe(1);
    expect(receiver.requests.map((request) => request.path)).toEqual(['/v1/traces']);
  });

  it('logs one warning when the collector refuses spans, naming no request', async () => {
    receiver.status = 400;
    const log = createLogCollector();
    const server = await buildTestServer({
      db: database.db,
      log,
      logLevel: 'info',
      configFor: (dataDir) => testConfig({ DATA_DIR: dataDir, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
    });
    await server.app.inject({ url: `/api/appointments/${LIAM.bookingKey}` });
    await server.close();
    const warnings = log.lines.filter((line) => line.includes('[tracing]'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('spans could not be delivered to the OTLP endpoint');
    expect(warnings[0]).not.toContain(LIAM.bookingKey);
  });

  it('closes without waiting for a collector that never answers', async () => {
    receiver.status = 0;
    const server = await buildTestServer({
      db: database.db,
      configFor: (dataDir) => testConfig({ DATA_DIR: dataDir, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
    });
    await server.app.inject({ url: '/api/health' });
    // The exporter alone would wait 30 s for its answer, past this test's limit.
    await server.close();
    expect(receiver.requests.at(-1)?.path).toBe('/v1/traces');
  }, 15_000);
});
