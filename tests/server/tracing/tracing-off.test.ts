import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestServer, testConfig } from '../helpers/build-server';
import { useTestDatabase } from '../helpers/test-app';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver';

// Without an OTLP endpoint (src-server/platform/tracing): the OpenTelemetry module is never
// imported, and a collector listening nearby hears nothing. tests/server/built-server.test.ts
// checks the same of the bundled server's start.

const loaded = vi.hoisted(() => ({ otel: 0 }));
vi.mock('../../../src-server/platform/tracing/otel', async (importOriginal) => {
  loaded.otel += 1;
  return importOriginal();
});

describe('without an OTLP endpoint', () => {
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
});
