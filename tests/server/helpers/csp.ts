import type { LightMyRequestResponse } from 'fastify';

/** The sources of one directive of the response's Content-Security-Policy ([] when it has none). */
export function cspDirective(response: LightMyRequestResponse, name: string): string[] {
  for (const part of String(response.headers['content-security-policy'] ?? '').split(';')) {
    const [key, ...sources] = part.trim().split(/\s+/);
    if (key === name) return sources;
  }
  return [];
}
