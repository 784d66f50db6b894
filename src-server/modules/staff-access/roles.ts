import { STAFF_ROLES, type StaffRole } from '@contract/api/staff-access';
import type { JWTPayload } from 'jose';

/**
 * The token's claims → the portal's roles (docs/rules/staff-access.md#roles). Entra ID puts app
 * roles in `roles` and security-group ids in `groups`; the provider's mapping names, per claim,
 * which values give which portal role. Values the mapping does not name give nothing, so a
 * token that maps to no role gets no session.
 */

export interface StaffRoleMapping {
  /** App role value (the `roles` claim) → portal role(s). */
  roles?: Record<string, StaffRole | readonly StaffRole[]>;
  /** Group id (the `groups` claim) → portal role(s). */
  groups?: Record<string, StaffRole | readonly StaffRole[]>;
}

type Lookup = Map<string, readonly StaffRole[]>;

/**
 * Own entries only, into a Map: a claim value such as `constructor` or `__proto__` must never
 * find something on an object's prototype.
 */
function lookup(entries: Record<string, StaffRole | readonly StaffRole[]> | undefined): Lookup {
  const map: Lookup = new Map();
  for (const [value, roles] of Object.entries(entries ?? {})) {
    const list = typeof roles === 'string' ? [roles] : roles;
    for (const role of list) {
      if (!(STAFF_ROLES as readonly string[]).includes(role)) throw new Error(`[staff-access] role mapping: unknown role ${String(role)}`);
    }
    map.set(value, list);
  }
  return map;
}

function claimValues(claims: JWTPayload, name: string): string[] {
  const value = claims[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function createRoleMapper(mapping: StaffRoleMapping) {
  const byRole = lookup(mapping.roles);
  const byGroup = lookup(mapping.groups);
  return (claims: JWTPayload): StaffRole[] => {
    const found = new Set<StaffRole>();
    for (const value of claimValues(claims, 'roles')) for (const role of byRole.get(value) ?? []) found.add(role);
    for (const value of claimValues(claims, 'groups')) for (const role of byGroup.get(value) ?? []) found.add(role);
    // In the fixed order of STAFF_ROLES, so the stored list does not depend on the claims' order.
    return STAFF_ROLES.filter((role) => found.has(role));
  };
}
