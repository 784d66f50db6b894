import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock';
import { AppError, serviceUnavailable } from '../../platform/errors';
import type { FhirScopeAccess, RouteAccess } from '../../platform/route-access';
import { createTokenVerifier, KeySetUnavailableError, type TokenVerifierOptions } from '../staff-access/public';
import { grantedScopes, neededScope, scopesAllow } from './scopes';

/**
 * The check of every /fhir/R4 route but /metadata (access kind 'fhir-scope', route-access.ts):
 * an access token of the configured identity provider (signature by a key of its JWKS, issuer,
 * the FHIR audience, expiry), whose scopes grant the route's interaction on its resource type.
 * Refusals are audited like every other (reason only, never the token) and answered as RFC 6750
 * says: 401 with WWW-Authenticate (error="invalid_token" when one was sent), 403 with
 * error="insufficient_scope" and the scope that would do.
 */

export interface FhirAccessOptions {
  /** The identity provider's issuer and key set (the staff sign-in's); absent: every FHIR call is 401. */
  identity: Pick<TokenVerifierOptions, 'issuer' | 'jwksUri' | 'jwksCooldownMs' | 'fetchKeys'> | undefined;
  /** The `aud` the tokens must carry (FHIR_AUDIENCE, default the FHIR base URL). */
  audience: string;
  clock: Clock;
}

/** Header values of the refusals, kept with the error so the FHIR error answer can send them. */
export interface FhirAuthDetails {
  wwwAuthenticate: string;
}

const REALM = 'Bearer realm="fhir"';
/** JWTs are longer than the portal's opaque tokens; anything beyond this is no token of ours. */
const MAX_TOKEN_LENGTH = 8192;

function bearerOf(header: unknown): string | null {
  if (typeof header !== 'string' || header.length > MAX_TOKEN_LENGTH + 7) return null;
  const match = /^Bearer ([\x21-\x7e]+)$/.exec(header);
  return match?.[1] ?? null;
}

function unauthorizedFhir(sent: boolean): AppError {
  const details: FhirAuthDetails = { wwwAuthenticate: sent ? `${REALM}, error="invalid_token"` : REALM };
  return new AppError('unauthorized', 401, 'An access token for this FHIR server is needed (Authorization: Bearer).', details);
}

function insufficientScope(access: FhirScopeAccess): AppError {
  const scope = neededScope(access.resource, access.interaction);
  const details: FhirAuthDetails = { wwwAuthenticate: `${REALM}, error="insufficient_scope", scope="${scope}"` };
  return new AppError('forbidden', 403, `The access token's scopes do not allow ${access.interaction} on ${access.resource}.`, details);
}

export function isFhirAuthDetails(details: unknown): details is FhirAuthDetails {
  return typeof details === 'object' && details !== null && typeof (details as FhirAuthDetails).wwwAuthenticate === 'string';
}

function fhirAccessOf(access: RouteAccess): FhirScopeAccess {
  if (typeof access === 'string' || access.kind !== 'fhir-scope') throw new Error('[fhir] the FHIR check is for fhir-scope routes only');
  return access;
}

/** Only where the tokens come from: the staff sign-in's other checks (its client id in azp) are not the FHIR API's. */
function verifierOf(identity: NonNullable<FhirAccessOptions['identity']>, audience: string, clock: Clock) {
  return createTokenVerifier(
    {
      issuer: identity.issuer,
      jwksUri: identity.jwksUri,
      audience,
      ...(identity.jwksCooldownMs === undefined ? {} : { jwksCooldownMs: identity.jwksCooldownMs }),
      ...(identity.fetchKeys === undefined ? {} : { fetchKeys: identity.fetchKeys }),
    },
    clock,
  );
}

/** The client of a request the FHIR check let through (its azp, appid or client_id, else its subject), for the audit log. */
const clients = new WeakMap<FastifyRequest, string>();

export function fhirClientOf(request: FastifyRequest): string {
  return clients.get(request) ?? 'unknown';
}

function clientOf(claims: Record<string, unknown>, subject: string): string {
  const client = [claims.azp, claims.appid, claims.client_id].find((value) => typeof value === 'string' && value !== '');
  return (typeof client === 'string' ? client : subject).slice(0, 200);
}

export function defineFhirAccessCheck(app: FastifyInstance, options: FhirAccessOptions): void {
  const { identity, audience, clock } = options;
  const verifier = identity === undefined ? null : verifierOf(identity, audience, clock);
  const refuse = async (request: FastifyRequest, reason: string, error: AppError): Promise<never> => {
    await request.server.securityAudit.refused(request, { reason });
    throw error;
  };

  app.defineAccessCheck('fhir-scope', async (request, routeAccess) => {
    const access = fhirAccessOf(routeAccess);
    const token = bearerOf(request.headers.authorization);
    if (token === null) return refuse(request, 'fhir_token_missing', unauthorizedFhir(request.headers.authorization !== undefined));
    if (verifier === null) return refuse(request, 'fhir_no_identity_provider', unauthorizedFhir(true));
    let verified;
    try {
      verified = await verifier.verify(token);
    } catch (error) {
      if (!(error instanceof KeySetUnavailableError)) throw error;
      request.log.warn({ code: error.code }, '[fhir] the identity provider key set could not be read');
      throw serviceUnavailable('The FHIR server cannot check access tokens right now; try again shortly.');
    }
    if (!verified.ok) return refuse(request, `fhir_token_${verified.reason}`, unauthorizedFhir(true));
    if (!scopesAllow(grantedScopes(verified.claims), access.resource, access.interaction))
      return refuse(request, 'fhir_scope_insufficient', insufficientScope(access));
    clients.set(request, clientOf(verified.claims, verified.subject));
  });
}
