import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPassword, readDemoIdentityAccounts } from '../../../src-server/dev-identity/accounts';

const directory = mkdtempSync(join(tmpdir(), 'identity-accounts-'));

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function fileWith(content: unknown): string {
  const file = join(directory, `${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const person = {
  sub: 'a-1',
  username: 'one@demo.example',
  password: 'password-one',
  displayName: 'One',
  givenName: 'O',
  familyName: 'Ne',
  roles: ['Portal.Staff'],
};

describe('demo identity accounts', () => {
  it('holds a staff member, an admin, a referring doctor and a kiosk administrator', () => {
    const accounts = readDemoIdentityAccounts();
    expect(
      accounts
        .map((account) => account.roles)
        .flat()
        .sort(),
    ).toEqual(['Portal.Admin', 'Portal.KioskAdmin', 'Portal.Referrer', 'Portal.Staff']);
    const referrer = accounts.find((account) => account.roles.includes('Portal.Referrer'));
    expect(referrer?.organization).toBeTruthy();
    expect(referrer?.providerNumber).toBeTruthy();
  });

  it('refuses a file with the same username twice, whatever the case', () => {
    const file = fileWith({ accounts: [person, { ...person, sub: 'a-2', username: 'ONE@demo.example' }] });
    expect(() => readDemoIdentityAccounts(file)).toThrow(/username one@demo.example appears twice/);
  });

  it('refuses a file with a missing field, naming it', () => {
    const file = fileWith({ accounts: [{ ...person, roles: undefined }] });
    expect(() => readDemoIdentityAccounts(file)).toThrow(/accounts\.0\.roles/);
  });

  it('matches the username case-insensitively and the password exactly', () => {
    const accounts = [{ ...person, groups: [] }];
    expect(checkPassword(accounts, ' ONE@demo.example ', 'password-one')?.sub).toBe('a-1');
    expect(checkPassword(accounts, 'one@demo.example', 'Password-one')).toBeNull();
    expect(checkPassword(accounts, 'one@demo.example', '')).toBeNull();
    expect(checkPassword(accounts, 'two@demo.example', 'password-one')).toBeNull();
  });
});
