import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoRisReceiver, type DemoRisReceiver } from '../../../src-server/dev-ris/receiver';
import { createRisWebhookSender } from '../../../src-server/platform/ris/webhook';

// The demo provider's stand-in RIS (src-server/dev-ris/receiver.ts): signed hand-offs only, accepted after a delay.

describe('the demo RIS receiver', () => {
  let receiver: DemoRisReceiver;
  beforeAll(async () => {
    receiver = await startDemoRisReceiver({ delayMs: 200 });
  });
  afterAll(() => receiver.close());

  it('accepts a signed hand-off after its delay', async () => {
    const started = Date.now();
    await createRisWebhookSender(receiver.config).send({
      idempotencyKey: 'check_in-1',
      event: 'check_in.complete',
      appointmentId: '00000000-0000-4000-8000-000000000001',
      queuedAt: new Date(),
      payload: { channel: 'DIGITAL' },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
  });

  it('refuses an unsigned or wrongly signed hand-off with 401', async () => {
    const unsigned = await fetch(receiver.config.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(unsigned.status).toBe(401);
    const wrongKey = createRisWebhookSender({ url: receiver.config.url, secret: 'b'.repeat(64) });
    const message = { idempotencyKey: 'x', appointmentId: '00000000-0000-4000-8000-000000000001', queuedAt: new Date(), payload: {} };
    await expect(wrongKey.send({ ...message, event: 'check_in.prepare' })).rejects.toMatchObject({
      code: 'http_401',
    });
  });
});
