import { makeAutoObservable } from 'mobx';
import type { FeatureStoreFactory } from '../../stores/root-store';

/**
 * The visitor's analytics choice (docs/rules/analytics.md#consent): "granted" (Allow analytics) or
 * "denied" (Only necessary), kept in this browser's localStorage for a year, then asked again.
 * First-party only; the server never sees it.
 */
export type ConsentChoice = 'granted' | 'denied';

export const CONSENT_STORAGE_KEY = 'portal.analyticsConsent';
/** How long a choice is kept: a year. */
export const CONSENT_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

interface StoredChoice {
  choice: ConsentChoice;
  /** When it was made, ms since the epoch. */
  decidedAt: number;
}

function readChoice(storage: Storage | null, now: Date): ConsentChoice | null {
  try {
    const parsed = JSON.parse(storage?.getItem(CONSENT_STORAGE_KEY) ?? 'null') as Partial<StoredChoice> | null;
    if (parsed === null || (parsed.choice !== 'granted' && parsed.choice !== 'denied') || typeof parsed.decidedAt !== 'number') return null;
    return now.getTime() - parsed.decidedAt < CONSENT_MAX_AGE_MS && parsed.decidedAt <= now.getTime() ? parsed.choice : null;
  } catch {
    // Storage blocked or the value damaged: ask again (nothing loads meanwhile).
    return null;
  }
}

export class ConsentStore {
  choice: ConsentChoice | null;
  /** Opened again from "Cookie settings" after a choice was made. */
  settingsOpen = false;
  private followedRequests = 0;

  private readonly storage: Storage | null;
  private readonly now: () => Date;

  constructor(deps: { storage: Storage | null; now: () => Date }) {
    this.storage = deps.storage;
    this.now = deps.now;
    this.choice = readChoice(deps.storage, deps.now());
    makeAutoObservable<this, 'storage' | 'now' | 'followedRequests'>(this, { storage: false, now: false, followedRequests: false });
  }

  /** The banner shows until the visitor chooses, and again when they open the settings. */
  get bannerOpen(): boolean {
    return this.choice === null || this.settingsOpen;
  }

  choose(choice: ConsentChoice): void {
    this.choice = choice;
    this.settingsOpen = false;
    try {
      this.storage?.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ choice, decidedAt: this.now().getTime() } satisfies StoredChoice));
    } catch {
      // Storage blocked: the choice holds for this page only.
    }
  }

  /** Opens the banner again for each "Cookie settings" request not yet followed (UiStore.cookieSettingsRequests). */
  followSettingsRequests(requests: number): void {
    if (requests <= this.followedRequests) return;
    this.followedRequests = requests;
    this.settingsOpen = true;
  }
}

function localStorageOf(win: Window): Storage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}

/** The store, once per visit (root.featureStore). */
export const consentStoreOf: FeatureStoreFactory<ConsentStore> = ({ root, window }) =>
  new ConsentStore({ storage: localStorageOf(window), now: root.clock });
