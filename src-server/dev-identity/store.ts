/**
 * Where one local identity provider keeps its sessions, interactions, codes, tokens and grants:
 * in memory, for the life of the process. Each startDevIdentityProvider call has its own store
 * (tests do not see each other's state), and every oidc-provider instance built for a key
 * rotation gets the same store, so a sign-in under way or a refresh token survives a rotation.
 * The adapter contract is oidc-provider's (node_modules/oidc-provider/lib/adapters/memory_adapter.js).
 */

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number };

interface Entry {
  payload: Payload;
  expiresAt: number;
}

/** Expired entries are swept when the store grows past this many. */
const SWEEP_ABOVE = 5_000;

export class DevIdentityStore {
  private readonly entries = new Map<string, Entry>();
  private readonly sessionIdByUid = new Map<string, string>();
  private readonly idByUserCode = new Map<string, string>();
  private readonly keysByGrant = new Map<string, Set<string>>();

  // Times are Date.now(): oidc-provider reads the system clock itself (lib/helpers/epoch_time.js).
  get(key: string): Payload | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  set(key: string, payload: Payload, expiresInSeconds: number): void {
    this.entries.set(key, { payload, expiresAt: Date.now() + expiresInSeconds * 1000 });
    if (this.entries.size > SWEEP_ABOVE) this.sweep();
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  indexSession(uid: string, id: string): void {
    this.sessionIdByUid.set(uid, id);
  }

  sessionIdFor(uid: string): string | undefined {
    return this.sessionIdByUid.get(uid);
  }

  indexUserCode(userCode: string, id: string): void {
    this.idByUserCode.set(userCode, id);
  }

  idForUserCode(userCode: string): string | undefined {
    return this.idByUserCode.get(userCode);
  }

  linkToGrant(grantId: string, key: string): void {
    const keys = this.keysByGrant.get(grantId) ?? new Set<string>();
    keys.add(key);
    this.keysByGrant.set(grantId, keys);
  }

  revokeGrant(grantId: string): void {
    for (const key of this.keysByGrant.get(grantId) ?? []) this.entries.delete(key);
    this.keysByGrant.delete(grantId);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    for (const [uid, id] of this.sessionIdByUid) if (!this.entries.has(`Session:${id}`)) this.sessionIdByUid.delete(uid);
    for (const [code, id] of this.idByUserCode) if (!this.entries.has(`DeviceCode:${id}`)) this.idByUserCode.delete(code);
    for (const [grantId, keys] of this.keysByGrant) {
      for (const key of keys) if (!this.entries.has(key)) keys.delete(key);
      if (keys.size === 0) this.keysByGrant.delete(grantId);
    }
  }
}

/** Models whose records belong to a grant and go when the grant is revoked. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

export interface DevIdentityAdapter {
  upsert(id: string, payload: Payload, expiresIn: number): Promise<void>;
  find(id: string): Promise<Payload | undefined>;
  findByUid(uid: string): Promise<Payload | undefined>;
  findByUserCode(userCode: string): Promise<Payload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** The adapter class oidc-provider instantiates once per model name, bound to one store. */
export function storeAdapter(store: DevIdentityStore): new (model: string) => DevIdentityAdapter {
  return class implements DevIdentityAdapter {
    constructor(private readonly model: string) {}

    private key(id: string): string {
      return `${this.model}:${id}`;
    }

    async upsert(id: string, payload: Payload, expiresIn: number): Promise<void> {
      const key = this.key(id);
      if (this.model === 'Session' && typeof payload.uid === 'string') store.indexSession(payload.uid, id);
      if (GRANTABLE.has(this.model) && typeof payload.grantId === 'string') store.linkToGrant(payload.grantId, key);
      if (typeof payload.userCode === 'string') store.indexUserCode(payload.userCode, id);
      store.set(key, payload, expiresIn);
    }

    async find(id: string): Promise<Payload | undefined> {
      return store.get(this.key(id));
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const id = store.sessionIdFor(uid);
      return id === undefined ? undefined : this.find(id);
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      const id = store.idForUserCode(userCode);
      return id === undefined ? undefined : this.find(id);
    }

    async consume(id: string): Promise<void> {
      const payload = store.get(this.key(id));
      if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      store.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      store.revokeGrant(grantId);
    }
  };
}
