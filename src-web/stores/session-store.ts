import { makeAutoObservable } from 'mobx';
import { paths } from '../paths';

/** How stores move the browser: the router once it exists, else the location. */
export interface PortalNavigator {
  navigate(to: string, options?: { replace?: boolean }): void;
  /** The current path and query, e.g. /appointments/abc?upload=1. */
  currentUrl(): string;
}

/**
 * Who is signed in. The authentication feature fills it; the shell needs the two reactions
 * to a 401 (spec point 6): logout for any call, re-authentication for the authenticated check.
 */
export class SessionStore {
  isAuthenticated = false;

  private readonly navigator: () => PortalNavigator;

  constructor(navigator: () => PortalNavigator) {
    this.navigator = navigator;
    makeAutoObservable<this, 'navigator'>(this, { navigator: false });
  }

  markAuthenticated(): void {
    this.isAuthenticated = true;
  }

  /** Forgets the signed-in state (a 401 on any call means the server no longer knows us). */
  logout(): void {
    this.isAuthenticated = false;
  }

  /**
   * The session ended during the authenticated check: sign in again and come back
   * (spec point 4: /authentication with the current URL as returnUrl).
   */
  reauthenticate(): void {
    this.isAuthenticated = false;
    const navigator = this.navigator();
    const current = navigator.currentUrl();
    const embedded = current === '/iframe' || current.startsWith('/iframe/');
    const path = embedded ? current.slice('/iframe'.length) || '/' : current;
    if (path.startsWith(paths.authentication())) return;
    const target = paths.authentication({ returnUrl: current });
    navigator.navigate(embedded ? paths.embedded(target) : target);
  }
}
