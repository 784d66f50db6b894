import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_RETRY_AFTER_SECONDS, toErrorResponse } from '../../platform/error-answers';
import { isAppError, retryAfterSeconds } from '../../platform/errors';
import { isFhirAuthDetails } from './access';

/**
 * Every FHIR failure as an OperationOutcome (FHIR R4 http.html#Status-Codes): the status of the
 * portal's own error answer (platform/error-answers.ts) and its safe message, with the FHIR issue
 * type that matches the status. Nothing of the request is quoted back.
 */

export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

type IssueType = OperationOutcomeIssue['code'];

const ISSUE_TYPES: Record<number, IssueType> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
  406: 'not-supported',
  409: 'conflict',
  410: 'deleted',
  413: 'too-costly',
  415: 'not-supported',
  422: 'processing',
  429: 'throttled',
  503: 'transient',
};

/** A failure the FHIR handlers raise themselves: its status, issue type and message. */
export class FhirError extends Error {
  constructor(
    readonly statusCode: number,
    readonly issueType: IssueType,
    message: string,
  ) {
    super(message);
    this.name = 'FhirError';
  }
}

export const invalidParameter = (message: string): FhirError => new FhirError(400, 'invalid', message);
export const notSupported = (message: string): FhirError => new FhirError(400, 'not-supported', message);
export const resourceNotFound = (type: string): FhirError => new FhirError(404, 'not-found', `There is no ${type} with this id.`);

export function operationOutcome(issueType: IssueType, message: string, severity: 'error' | 'fatal' = 'error'): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity, code: issueType, diagnostics: message }] };
}

/** The status and OperationOutcome of any error, as the FHIR routes answer it. */
export function outcomeOf(error: FastifyError | Error): { status: number; outcome: OperationOutcome } {
  if (error instanceof FhirError) return { status: error.statusCode, outcome: operationOutcome(error.issueType, error.message) };
  const { status, body } = toErrorResponse(error);
  const issueType = ISSUE_TYPES[status] ?? 'exception';
  // A refused booking's field messages are the booking form's own (safe: they name rules, not values).
  const fields = Array.isArray(body.details)
    ? (body.details as unknown[]).flatMap((detail) =>
        typeof detail === 'object' && detail !== null && typeof (detail as { message?: unknown }).message === 'string'
          ? [(detail as { message: string }).message]
          : [],
      )
    : [];
  const more = fields.filter((field) => field !== body.message);
  const message = more.length === 0 ? body.message : `${body.message} ${more.join(' ')}`;
  return { status, outcome: operationOutcome(issueType, message, status >= 500 ? 'fatal' : 'error') };
}

/** The FHIR routes' error handler: logs as the portal's does (the code only for a client error) and answers an OperationOutcome. */
export function answerFhirError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, outcome } = outcomeOf(error);
  if (status >= 500) request.log.error({ err: error, statusCode: status }, 'FHIR request failed');
  else request.log.info({ code: outcome.issue[0]?.code, statusCode: status }, 'FHIR request rejected');
  if (isAppError(error) && isFhirAuthDetails(error.details)) reply.header('www-authenticate', error.details.wwwAuthenticate);
  const wait = retryAfterSeconds(error) ?? (status === 429 || status === 503 ? DEFAULT_RETRY_AFTER_SECONDS : null);
  if (wait !== null) reply.header('retry-after', String(wait));
  reply.removeHeader('etag').removeHeader('content-length');
  return reply.code(status).header('cache-control', 'no-store').header('content-type', FHIR_JSON).send(outcome);
}
