import { describe, expect, it } from 'vitest';
import { grantedScopes, neededScope, scopeAllows } from '../../../src-server/modules/fhir/scopes';

// Which SMART system scopes grant what (src-server/modules/fhir/scopes.ts).
describe('FHIR scopes', () => {
  it.each([
    ['system/Location.rs', 'Location', 'read', true],
    ['system/Location.rs', 'Location', 'search', true],
    ['system/Location.rs', 'Location', 'write', false],
    ['system/Location.r', 'Location', 'search', false],
    ['system/Location.s', 'Location', 'read', false],
    ['system/*.rs', 'Slot', 'search', true],
    ['system/*.cruds', 'Slot', 'write', true],
    ['system/Appointment.c', 'Appointment', 'write', true],
    ['system/Appointment.c', 'Appointment', 'read', false],
    ['system/Location.read', 'Location', 'search', true],
    ['system/Location.write', 'Location', 'read', false],
    ['system/*.*', 'Location', 'write', true],
    ['system/Location.rs', 'Slot', 'read', false],
    ['system/Location.sr', 'Location', 'read', false],
    ['system/Location.rrs', 'Location', 'read', false],
    ['user/Location.rs', 'Location', 'read', false],
    ['patient/*.rs', 'Location', 'read', false],
    ['system/Slot.rs?status=free', 'Slot', 'search', false],
    ['Location.rs', 'Location', 'read', false],
  ] as const)('%s lets %s %s: %s', (scope, resource, interaction, allowed) => {
    expect(scopeAllows(scope, resource, interaction)).toBe(allowed);
  });

  it('reads scopes from scp, scope and roles (Entra ID app roles)', () => {
    expect(grantedScopes({ scp: 'system/Location.rs openid', scope: 'system/Slot.s', roles: ['system/Schedule.rs', 7] })).toEqual([
      'system/Location.rs',
      'openid',
      'system/Slot.s',
      'system/Schedule.rs',
    ]);
    expect(grantedScopes({})).toEqual([]);
  });

  it('names the scope a refused call needs', () => {
    expect(neededScope('Location', 'search')).toBe('system/Location.s');
    expect(neededScope('Slot', 'read')).toBe('system/Slot.r');
  });
});
