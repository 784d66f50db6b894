import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP SMS provider inside the test process (node:http): it records every POST and
 * answers with the status the test sets, so the adapter is tested over the wire, not mocked.
 */

export interface ReceivedSms {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

export interface TestSmsProvider {
  url: string;
  port: number;
  received: ReceivedSms[];
  /** The status the next requests get (202 by default). */
  status: number;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedSms[]>;
  stop(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startTestSmsProvider(port = 0): Promise<TestSmsProvider> {
  const received: ReceivedSms[] = [];
  const provider: Partial<TestSmsProvider> & { received: ReceivedSms[]; status: number } = { received, status: 202 };
  const server: Server = createServer((request, response) => {
    void readBody(request).then((text) => {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body,
      });
      response.writeHead(provider.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: provider.status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return Object.assign(provider, {
    url: `http://127.0.0.1:${actualPort}/v1/messages`,
    port: actualPort,
    async waitFor(count: number, timeoutMs = 5000): Promise<ReceivedSms[]> {
      const started = Date.now();
      while (received.length < count) {
        if (Date.now() - started > timeoutMs) throw new Error(`waited ${timeoutMs} ms for ${count} SMS, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
