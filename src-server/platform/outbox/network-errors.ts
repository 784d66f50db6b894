/** The socket failures that mean the other side (the database, a provider, the RIS) cannot be reached now. */
export const UNREACHABLE_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'EPIPE'];

/** The network failures an HTTP delivery (SMS provider, the clinic's RIS) tells apart, by code. */
const NETWORK_CODES = [...UNREACHABLE_CODES, 'ENETUNREACH', 'UND_ERR_SOCKET'];

export function networkCode(error: unknown): string {
  // fetch wraps the socket error: TypeError('fetch failed') with a cause carrying the code.
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 4; depth += 1) {
    if (typeof current === 'object' && 'code' in current && typeof current.code === 'string' && NETWORK_CODES.includes(current.code)) {
      return current.code;
    }
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return 'network_error';
}

/**
 * POSTs one delivery (an SMS to the provider, a hand-off to the clinic's RIS) and reads the
 * answer's body, which is not needed, to free the connection. A timeout or a network failure is
 * thrown as `unreachable(code)`: 'timeout', 'ECONNREFUSED', … ('network_error' when unknown).
 */
export async function postDelivery(
  url: string,
  request: { headers: Record<string, string>; body: string; timeoutMs: number },
  unreachable: (code: string) => Error,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw unreachable(timedOut ? 'timeout' : networkCode(error));
  }
  await response.arrayBuffer().catch(() => undefined);
  return response;
}
