import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KioskIdentitySchema, type KioskIdentity } from '@contract/api/kiosks';
import type { KioskSafeStorage } from './electron-surface';

/** The encrypted token and the (not secret) identity, both under userData. */
export const TOKEN_FILE = 'kiosk-token.bin';
export const IDENTITY_FILE = 'kiosk-identity.json';

/**
 * Why the OS cannot keep the kiosk token secret, or null when it can. On Linux without a secret
 * service Electron "encrypts" with a hard-coded password (backend `basic_text`): that is
 * plaintext in disguise, so we refuse it like no encryption at all (docs/rules/kiosk.md#identity).
 */
export function secureStorageProblem(safeStorage: KioskSafeStorage, platform: string): string | null {
  if (!safeStorage.isEncryptionAvailable()) return 'the operating system offers no encryption for stored secrets';
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    return 'the only secret store is basic_text (no keyring such as GNOME Keyring or KWallet is running)';
  }
  return null;
}

export type SaveResult = { ok: true } | { ok: false; problem: string };

export interface KioskTokenStore {
  /** The stored token, or null when none is stored (or it cannot be decrypted any more). */
  readToken(): string | null;
  /** Encrypts and stores the token; refuses (and writes nothing) when storage is not secure. */
  saveToken(token: string): SaveResult;
  deleteToken(): void;
  readIdentity(): KioskIdentity | null;
  saveIdentity(identity: KioskIdentity): void;
}

export interface TokenStoreOptions {
  safeStorage: KioskSafeStorage;
  platform: string;
  /** Electron's userData folder. */
  directory: string;
}

/** Writes through a temp file and a rename, so a crash mid-write never leaves half a file. */
export function writeFileAtomic(filePath: string, data: string | Uint8Array, mode = 0o600): void {
  mkdirSync(path.dirname(filePath), { recursive: true });
  const temp = `${filePath}.${process.pid}.tmp`;
  writeFileSync(temp, data, { mode });
  renameSync(temp, filePath);
}

function readOrNull(filePath: string): Buffer | null {
  try {
    return readFileSync(filePath);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
    throw error;
  }
}

/** The kiosk's credential on disk: the token only ever as safeStorage ciphertext. */
export function createTokenStore(options: TokenStoreOptions): KioskTokenStore {
  const tokenPath = path.join(options.directory, TOKEN_FILE);
  const identityPath = path.join(options.directory, IDENTITY_FILE);
  return {
    readToken() {
      // A token stored under a weaker backend than today's must not be trusted either.
      if (secureStorageProblem(options.safeStorage, options.platform)) return null;
      const encrypted = readOrNull(tokenPath);
      if (!encrypted) return null;
      try {
        const token = options.safeStorage.decryptString(encrypted);
        return token.length > 0 ? token : null;
      } catch {
        // Another user's or machine's key: the token is unusable, enrolling again is the way out.
        return null;
      }
    },
    saveToken(token) {
      const problem = secureStorageProblem(options.safeStorage, options.platform);
      if (problem) return { ok: false, problem };
      writeFileAtomic(tokenPath, options.safeStorage.encryptString(token));
      return { ok: true };
    },
    deleteToken() {
      rmSync(tokenPath, { force: true });
    },
    readIdentity() {
      const text = readOrNull(identityPath);
      if (!text) return null;
      try {
        const parsed = KioskIdentitySchema.safeParse(JSON.parse(text.toString('utf8')));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    saveIdentity(identity) {
      writeFileAtomic(identityPath, JSON.stringify(KioskIdentitySchema.parse(identity), null, 2));
    },
  };
}
