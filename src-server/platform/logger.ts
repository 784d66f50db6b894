import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config';

/**
 * Structured JSON logs with no personal data (docs/rules/security.md#logging): a request is logged by its
 * method and route pattern (`/api/appointments/:bookingKey`), never its raw URL or query string,
 * and never headers or bodies. Errors keep type, message, code and stack, but not driver
 * details such as PostgreSQL's `detail` ("Key (booking_key)=(…) already exists").
 */

export interface LogDestination {
  write(line: string): void;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Where JSON lines go; stdout when omitted. Tests pass a collector. */
  stream?: LogDestination;
}

type FastifyLoggerConfig = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    // The pattern, not the URL: paths and queries can carry booking keys, names or dates of birth.
    route: request.routeOptions.url ?? '(no route)',
  };
}

function serializeReply(reply: Partial<FastifyReply> & Pick<FastifyReply, 'statusCode'>): Record<string, unknown> {
  return { statusCode: reply.statusCode };
}

function serializeError(error: Error): { type: string; message: string; stack: string; [key: string]: unknown } {
  const code = 'code' in error && (typeof error.code === 'string' || typeof error.code === 'number') ? error.code : undefined;
  return {
    type: error.name,
    message: error.message,
    stack: error.stack ?? '',
    ...(code === undefined ? {} : { code }),
  };
}

export function fastifyLoggerOptions(options: LoggerOptions): FastifyLoggerConfig {
  return {
    level: options.level,
    ...(options.stream === undefined ? {} : { stream: options.stream }),
    serializers: {
      req: serializeRequest,
      res: serializeReply,
      err: serializeError,
    },
    // Belt and braces: should anything ever log these objects whole, the secrets are replaced.
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.url',
        'req.query',
        'req.body',
        'res.headers["set-cookie"]',
        'headers.authorization',
        'headers.cookie',
        'body',
        'query',
      ],
      censor: '[redacted]',
    },
  };
}
