import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * A real HTTP listener standing in for the clinic's RIS in tests. It checks each hand-off's
 * signature with its own HMAC code (not the server's), records what arrived, and answers as told:
 * 'ok' (200), a status code, or 'hang' (never answers, so the sender times out). Answers are
 * taken from `plan` in order; when it is empty, 'ok'.
 */

export type RisAnswer = 'ok' | 'hang' | number;

export interface ReceivedHandoff {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  signatureValid: boolean;
  answered: RisAnswer;
}

export interface RisListener {
  readonly url: string;
  readonly secret: string;
  received: ReceivedHandoff[];
  plan: RisAnswer[];
  /** The instant the signature's timestamp must be near (the app's test clock). */
  now: () => Date;
}

function signatureValid(secret: string, headers: IncomingHttpHeaders, body: string, now: Date): boolean {
  const timestamp = Number(headers['x-portal-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > 300) return false;
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(String(headers['x-portal-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function useRisListener(now: () => Date): RisListener {
  const secret = 'test-ris-secret-0123456789abcdef0123456789';
  const hanging = new Set<() => void>();
  const listener: RisListener = { url: '', secret, received: [], plan: [], now };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const answer = listener.plan.shift() ?? 'ok';
      listener.received.push({
        headers: request.headers,
        body: JSON.parse(text) as Record<string, unknown>,
        signatureValid: signatureValid(secret, request.headers, text, listener.now()),
        answered: answer,
      });
      if (answer === 'hang') {
        hanging.add(() => response.destroy());
        return;
      }
      response.writeHead(answer === 'ok' ? 200 : answer).end();
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    Object.assign(listener, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/portal/check-in` });
  });
  afterAll(async () => {
    for (const end of hanging) end();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return listener;
}
