import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RIS_SIGNATURE_HEADER, RIS_TIMESTAMP_HEADER, verifyRisSignature, type RisWebhookConfig } from '../platform/ris/webhook';

/**
 * The demo provider's stand-in for a clinic's RIS (docs/rules/check-in.md#hand-off): a loopback
 * HTTP listener started with the server when RIS_WEBHOOK_URL is unset outside production. It
 * checks each hand-off's signature (401 otherwise) and accepts after a short delay, so the demo
 * shows every check-in state (preparing, prepared, checking in, checked in). It keeps nothing.
 */

export const DEMO_RIS_DELAY_MS = 1_500;
const MAX_BODY_BYTES = 64 * 1024;

export interface DemoRisReceiver {
  config: RisWebhookConfig;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(null));
  });
}

export async function startDemoRisReceiver(options: { delayMs?: number } = {}): Promise<DemoRisReceiver> {
  const secret = randomBytes(32).toString('hex');
  const delayMs = options.delayMs ?? DEMO_RIS_DELAY_MS;
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const signed =
        body !== null &&
        verifyRisSignature(
          secret,
          {
            timestamp: request.headers[RIS_TIMESTAMP_HEADER] as string | undefined,
            signature: request.headers[RIS_SIGNATURE_HEADER] as string | undefined,
          },
          body,
          new Date(),
        );
      if (request.method !== 'POST' || !signed) {
        response.writeHead(request.method === 'POST' ? 401 : 405).end();
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":true}');
      }, delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    config: { url: `http://127.0.0.1:${port}/check-in`, secret },
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
