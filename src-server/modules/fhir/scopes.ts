import type { JWTPayload } from 'jose';
import type { FhirInteraction } from '../../platform/route-access';

/**
 * What a FHIR client's access token lets it do, read from its scopes: SMART App Launch v2 system
 * scopes (`system/Location.rs`, `system/*.cruds`) and their v1 spelling (`system/Location.read`,
 * `system/*.write`, `system/*.*`). Only system scopes count: the portal's FHIR API serves machine
 * clients (a RIS), not a person. A v2 scope narrowed by a query (`system/Slot.rs?status=free`) is
 * not understood here and so grants nothing.
 *
 * The scopes are read from `scp` and `scope` (space-separated: OAuth providers, the demo identity
 * provider) and from `roles` (an array: Microsoft Entra ID puts a client's application permissions
 * there, where app role values carry the same spelling).
 */

const V2_LETTERS: Record<FhirInteraction, readonly string[]> = { read: ['r'], search: ['s'], write: ['c', 'u'] };
const V1_WORDS: Record<FhirInteraction, readonly string[]> = { read: ['read', '*'], search: ['read', '*'], write: ['write', '*'] };

/** Every scope the token carries, from whichever claim the provider uses. */
export function grantedScopes(claims: JWTPayload): string[] {
  const spaced = [claims.scp, claims.scope].flatMap((value) => (typeof value === 'string' ? value.split(' ') : []));
  const roles = Array.isArray(claims.roles) ? claims.roles.filter((role): role is string => typeof role === 'string') : [];
  return [...spaced, ...roles].map((scope) => scope.trim()).filter((scope) => scope !== '' && scope.length <= 200);
}

/** Whether one scope grants `interaction` on `resource`. */
export function scopeAllows(scope: string, resource: string, interaction: FhirInteraction): boolean {
  const match = /^system\/([A-Za-z]+|\*)\.([a-z]+|\*)$/.exec(scope);
  if (match === null) return false;
  const [, type = '', permission = ''] = match;
  if (type !== '*' && type !== resource) return false;
  if (V1_WORDS[interaction].includes(permission)) return true;
  // v2: a non-empty run of c, r, u, d, s in that order, each at most once.
  if (!/^c?r?u?d?s?$/.test(permission)) return false;
  return V2_LETTERS[interaction].some((letter) => permission.includes(letter));
}

export function scopesAllow(scopes: readonly string[], resource: string, interaction: FhirInteraction): boolean {
  return scopes.some((scope) => scopeAllows(scope, resource, interaction));
}

/** The scope a client would need, as the 403's WWW-Authenticate names it. */
export function neededScope(resource: string, interaction: FhirInteraction): string {
  return `system/${resource}.${interaction === 'write' ? 'c' : interaction === 'read' ? 'r' : 's'}`;
}
