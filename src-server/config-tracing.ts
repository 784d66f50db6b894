import type { Values } from './config-env';
import { httpUrl } from './config-parsers';
import { quote, refuse, type Parse } from './config-variable';

/**
 * OpenTelemetry traces (docs/operations.md#traces), from the standard OTLP variables: with neither
 * endpoint set there is no tracing, and the OpenTelemetry packages are never loaded.
 */

export interface TracingConfig {
  /** Where spans are POSTed as OTLP/HTTP JSON: the full URL, /v1/traces included. */
  url: string;
  serviceName: string;
}

export const DEFAULT_SERVICE_NAME = 'radiology-portal';

/** An http(s) URL without credentials (a collector's token goes in a header, never in a logged URL). */
function otlpUrl(example: string): Parse<URL | null> {
  return (raw) => {
    if (raw === undefined) return null;
    const url = httpUrl(raw);
    if (url === null || url.username !== '' || url.password !== '') {
      return refuse(`must be an http(s) URL without user or password, such as ${example}`);
    }
    return url;
  };
}

/** The collector's base URL; the spec appends v1/traces to it. */
export const otlpEndpoint: Parse<string | null> = (raw, context) => {
  const url = otlpUrl('http://otel-collector:4318')(raw, context);
  if (url === null || !(url instanceof URL)) return url;
  return new URL(`${url.pathname.replace(/\/*$/, '/')}v1/traces`, url).href;
};

/** The traces URL itself, used as written (the spec appends nothing). */
export const otlpTracesEndpoint: Parse<string | null> = (raw, context) => {
  const url = otlpUrl('http://otel-collector:4318/v1/traces')(raw, context);
  return url instanceof URL ? url.href : url;
};

const SERVICE_NAME = /^[\w.:/-]{1,100}$/;

export const serviceName: Parse<string> = (raw = DEFAULT_SERVICE_NAME) =>
  SERVICE_NAME.test(raw) ? raw : refuse(`must be 1 to 100 letters, digits, '.', ':', '/', '-' or '_', got ${quote(raw)}`);

/**
 * Config's `tracing`, absent without an endpoint. The signal's own endpoint wins over the base one,
 * as the OpenTelemetry specification says.
 */
export function tracingOf(values: Values): { tracing?: TracingConfig } {
  const url = values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? values.OTEL_EXPORTER_OTLP_ENDPOINT;
  return url === null ? {} : { tracing: { url, serviceName: values.OTEL_SERVICE_NAME } };
}
