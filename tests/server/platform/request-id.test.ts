import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';
import { LIAM } from '../route-access-matrix';

// Request ids (src-server/platform/request-id.ts): every log line of a request carries its id
// (reqId), every answer names it in X-Request-Id, and an incoming id is kept only when it is a
// short safe token; anything else is replaced, so it cannot carry text into the log.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface LogLine {
  reqId?: string;
  msg?: string;
}

describe.each(backends())('request ids on %s', (backend) => {
  const server = useTestApp({ backend, log: 'info' });

  const linesOf = (reqId: string): LogLine[] =>
    server.log.lines.map((line) => JSON.parse(line) as LogLine).filter((line) => line.reqId === reqId);

  it('keeps a safe incoming X-Request-Id, echoes it, and puts it on every log line of the request', async () => {
    const id = 'proxy-7f3a9c.01_ab';
    const linesBefore = server.log.lines.length;
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/appointments/${LIAM.bookingKey}`,
      headers: { 'x-request-id': id },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['x-request-id']).toBe(id);
    const lines = server.log.lines.slice(linesBefore).map((line) => JSON.parse(line) as LogLine);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request rejected', 'request completed']);
    for (const line of lines) expect(line.reqId, line.msg).toBe(id);
    expect(server.log.text()).not.toContain(LIAM.bookingKey);
  });

  it('replaces an unsafe or missing id with a new random one for each request', async () => {
    const unsafe = ['short', 'x'.repeat(65), 'has spaces in it', 'line\u2028break-0123', 'a/b/c/d/e/f/g/h', `${LIAM.dateOfBirth} 10:42`];
    const seen = new Set<string>();
    for (const id of [...unsafe, undefined, undefined]) {
      const response = await server.app.inject({
        method: 'GET',
        url: '/api/health/live',
        headers: id === undefined ? {} : { 'x-request-id': id },
      });
      const answered = String(response.headers['x-request-id']);
      expect(answered, String(id)).toMatch(UUID);
      seen.add(answered);
      expect(linesOf(answered).map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    }
    expect(seen.size).toBe(unsafe.length + 2);
    expect(server.log.text()).not.toContain('has spaces in it');
  });

  it('names the id on pages, API 404s and a URL that cannot be read', async () => {
    for (const url of ['/booking', '/api/no-such-route', '/api/%E0%A4%A']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { 'x-request-id': 'trace-0123456789' } });
      expect(response.headers['x-request-id'], url).toBe('trace-0123456789');
    }
  });
});
