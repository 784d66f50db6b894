/** The network failures an HTTP delivery (SMS provider, the clinic's RIS) tells apart, by code. */
const NETWORK_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
];

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
