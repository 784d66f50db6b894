import { makeAutoObservable, runInAction } from 'mobx';
import type { ImageViewerDirectRequest } from '@contract/api/image-viewer';
import type { StaffUser } from '@contract/api/staff-access';
import { ApiError } from '../../api/client';
import { createQuickReportApi } from '../../api/quick-report-api';
import { safeRedirectUrl } from '../../platform/safe-url';
import type { FeatureStoreContext } from '../../stores/root-store';

/** Why the images did not open: no viewer address, no access, or another failure. */
export type DirectImagesProblem = 'noUrl' | 'noAccess' | 'failed';

export interface DirectImagesDeps {
  /** POST /api/image_viewer/direct: the viewer's address. */
  direct: (request: ImageViewerDirectRequest) => Promise<string>;
  /** The browser leaves for the viewer (same tab). */
  assign: (url: string) => void;
}

/**
 * An external user's image link opened after the image-viewer sign-in (direct image
 * access navigates to the returned url; docs/identity.md#the-browser): the signed-in person's
 * name and e-mail go with the link for the audit, and the browser goes to the address answered.
 */
export class DirectImagesStore {
  opening = false;
  problem: DirectImagesProblem | null = null;

  private readonly deps: DirectImagesDeps;

  constructor(deps: DirectImagesDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps'>(this, { deps: false });
  }

  async open(input: string, user: StaffUser): Promise<void> {
    if (this.opening) return;
    this.opening = true;
    this.problem = null;
    try {
      const url = safeRedirectUrl(await this.deps.direct({ input, ...whoOpens(user) }));
      if (url === null) {
        runInAction(() => this.stop('noUrl'));
        return;
      }
      // The page stays "opening" while the browser leaves.
      this.deps.assign(url);
    } catch (error) {
      runInAction(() => this.stop(problemOf(error)));
    }
  }

  private stop(problem: DirectImagesProblem): void {
    this.opening = false;
    this.problem = problem;
  }
}

/** The username always; the e-mail too where the username is one (identity providers sign in by e-mail). */
function whoOpens(user: StaffUser): Pick<ImageViewerDirectRequest, 'username' | 'email'> {
  const username = user.username.slice(0, 200);
  return /^[^\s@]+@[^\s@]+$/.test(username) && username.length <= 254 ? { username, email: username } : { username };
}

function problemOf(error: unknown): DirectImagesProblem {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.status === 404) return 'noUrl';
  return error.status === 403 || error.status === 400 ? 'noAccess' : 'failed';
}

export function directImagesStoreOf({ client, window }: FeatureStoreContext): DirectImagesStore {
  const api = createQuickReportApi(client);
  return new DirectImagesStore({ direct: (request) => api.imageViewerDirect(request), assign: (url) => window.location.assign(url) });
}
