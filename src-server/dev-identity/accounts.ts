import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The demo people of the local identity provider, read from
 * resources/demo-provider/identity-accounts.json. Every value is fictional.
 */

export const IDENTITY_ACCOUNTS_FILE = fileURLToPath(new URL('../../resources/demo-provider/identity-accounts.json', import.meta.url));

const AccountSchema = z.object({
  /** Stable subject; also sent as `oid`, the claim Entra ID uses for the object id. */
  sub: z.string().min(1),
  /** What the person types on the sign-in page; sent as `preferred_username`. */
  username: z.string().min(1),
  password: z.string().min(8),
  displayName: z.string().min(1),
  givenName: z.string().min(1),
  familyName: z.string().min(1),
  /** Entra ID app-role values (Portal.Staff, Portal.Admin, Portal.Referrer, Portal.KioskAdmin). */
  roles: z.array(z.string().min(1)),
  /** Entra ID security-group object ids, for portals that map groups instead of app roles. */
  groups: z.array(z.string().min(1)).default([]),
  /** Referring doctors only: the practice they sign in for. */
  organization: z.string().min(1).optional(),
  /** Referring doctors only: their provider number. */
  providerNumber: z.string().min(1).optional(),
});

const AccountsFileSchema = z.object({ accounts: z.array(AccountSchema).min(1) });

export type DemoIdentityAccount = z.infer<typeof AccountSchema>;

/** Reads and checks the accounts file; duplicate usernames or subjects are refused. */
export function readDemoIdentityAccounts(file: string = IDENTITY_ACCOUNTS_FILE): DemoIdentityAccount[] {
  const parsed = AccountsFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`${file} is not valid:\n${problems.join('\n')}`);
  }
  const accounts = parsed.data.accounts;
  for (const key of ['username', 'sub'] as const) {
    const seen = new Set<string>();
    for (const account of accounts) {
      const value = key === 'username' ? account.username.toLowerCase() : account.sub;
      if (seen.has(value)) throw new Error(`${file}: ${key} ${value} appears twice`);
      seen.add(value);
    }
  }
  return accounts;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** A dummy comparison target so an unknown username costs the same as a wrong password. */
const NO_ACCOUNT_DIGEST = digest('no such account');

/**
 * The account whose username (case-insensitive, like a user principal name) and password match,
 * or null. The password comparison runs in constant time on digests of equal length.
 */
export function checkPassword(accounts: readonly DemoIdentityAccount[], username: string, password: string): DemoIdentityAccount | null {
  const wanted = username.trim().toLowerCase();
  const account = accounts.find((candidate) => candidate.username.toLowerCase() === wanted);
  const expected = account ? digest(account.password) : NO_ACCOUNT_DIGEST;
  const matches = timingSafeEqual(expected, digest(password));
  return account && matches ? account : null;
}

/**
 * The OpenID Connect claims of a person. The provider releases them by scope (configuration.ts)
 * into the id_token and the userinfo answer.
 */
export function identityClaims(account: DemoIdentityAccount): Record<string, unknown> {
  return { sub: account.sub, ...accessTokenClaims(account) };
}

/**
 * The claims added to an access token for the portal API: what a Microsoft identity platform
 * access token carries for an API with app roles (oid, name, preferred_username, roles, groups),
 * given_name and family_name (optional claims a tenant adds for the portal, so a referring
 * doctor is named as the current doctor), plus the referrer's organization.
 */
export function accessTokenClaims(account: DemoIdentityAccount): Record<string, unknown> {
  return {
    oid: account.sub,
    name: account.displayName,
    preferred_username: account.username,
    given_name: account.givenName,
    family_name: account.familyName,
    roles: account.roles,
    groups: account.groups,
    ...(account.organization === undefined ? {} : { organization: account.organization }),
    ...(account.providerNumber === undefined ? {} : { provider_number: account.providerNumber }),
  };
}
