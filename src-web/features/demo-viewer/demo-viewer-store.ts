import { makeAutoObservable } from 'mobx';
import type { DemoStudy } from '@contract/api/image-viewer';
import { ApiError } from '../../api/client';
import { createDemoViewerApi, type DemoViewerApi } from './demo-viewer-api';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';

/**
 * Why the viewer shows no study: the link is expired or not valid (the server's 403, a link that
 * is no link at all: Retry cannot help), or the server could not be reached (Retry can).
 */
export type DemoViewerProblem = 'link' | 'unavailable';

/** The link's token as the page's query gives it; the server checks the rest. */
const TOKEN_SHAPE = /^[A-Za-z0-9._-]{1,1024}$/;

/**
 * The demo image viewer (/demo-viewer?study=…&token=…, the stand-in for a provider's PACS viewer):
 * loads the study a signed demo viewer link opens and keeps which image is shown.
 */
export class DemoViewerStore {
  study: DemoStudy | null = null;
  readonly loader = new Loader();
  problem: DemoViewerProblem | null = null;
  /** The image shown: an index into study.images. */
  selected = 0;

  private token = '';
  private readonly api: DemoViewerApi;

  constructor(deps: { api: DemoViewerApi }) {
    this.api = deps.api;
    makeAutoObservable<this, 'token' | 'api'>(this, { token: false, loader: false, api: false });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** Opens the study of `token` (the page's ?token=); a later open wins over an earlier one still loading. */
  async open(token: string | null): Promise<void> {
    this.token = token ?? '';
    this.study = null;
    this.selected = 0;
    if (!TOKEN_SHAPE.test(this.token)) {
      // Not a link at all: whatever an earlier open still awaits is dropped.
      this.loader.dispose();
      this.loader.set('error');
      this.problem = 'link';
      return;
    }
    this.problem = null;
    await this.loader.run(() => this.api.study(this.token), {
      loaded: (study) => (this.study = study),
      failed: (error) => {
        // 403: expired, changed or foreign link; 400: not a link at all. Anything else may pass.
        const refused = error instanceof ApiError && error.kind === 'http' && (error.status === 403 || error.status === 400);
        this.problem = refused ? 'link' : 'unavailable';
      },
    });
  }

  /** Tries the same link again (after a network or server failure). */
  retry(): Promise<void> {
    return this.open(this.token);
  }

  get images(): DemoStudy['images'] {
    return this.study?.images ?? [];
  }

  get current(): DemoStudy['images'][number] | null {
    return this.images[this.selected] ?? null;
  }

  select(index: number): void {
    if (Number.isInteger(index) && index >= 0 && index < this.images.length) this.selected = index;
  }

  /** The next (+1) or previous (-1) image, round the end. */
  step(by: 1 | -1): void {
    const count = this.images.length;
    if (count > 0) this.selected = (this.selected + by + count) % count;
  }

  /** Where image `index` of the study is (an img src). */
  imageUrl(index: number): string {
    return this.api.imageUrl(index, this.token);
  }

  /** Leaving the page: answers still on their way change nothing. */
  dispose(): void {
    this.loader.dispose();
  }
}

export function demoViewerStoreOf({ client }: FeatureStoreContext): DemoViewerStore {
  return new DemoViewerStore({ api: createDemoViewerApi(client) });
}
