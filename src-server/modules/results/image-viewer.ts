import {
  DEFAULT_REPOSITORY_SOURCE,
  DEMO_VIEWER_LINK,
  type ImageState,
  type ImageViewerDirectResponse,
  type ImageViewerResponse,
} from '@contract/api/image-viewer';
import { RESULTS_EXPIRED_PATH } from '@contract/api/results';
import { createAuditLogRepository, linkRefusedEntry } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { ImageViewerConfig, RepositorySource } from '../../config-results';
import type { Clock } from '../../platform/clock';
import { appError } from '../../platform/errors';
import type { SignedLinks } from '../../platform/signed-links';
import { checkImageLink, type ImageLinkHolder } from './image-links';
import { createResultsRepository, type ReportStudyRow } from './repository';

/**
 * The image viewer link (docs/rules/results.md#image-viewer): the imsec a result
 * page carries is checked (MAC first, then expiry, purpose and audience: platform/signed-links)
 * and turned into where the browser goes. An expired link answers EXPIRED with the deny page;
 * any other bad link is 403 and audited; a good one is audited as the images being opened.
 */

export const RESULTS_EXPIRED_URL = RESULTS_EXPIRED_PATH;

/** The archive a link names: 'default' follows the image viewer settings; others are configured (IMAGE_REPOSITORY_SOURCES). */
export function repositorySourceOf(config: ImageViewerConfig, name: string): RepositorySource {
  if (name === DEFAULT_REPOSITORY_SOURCE) return { preference: config.preference, pacsUrl: config.pacsUrl };
  const source = Object.hasOwn(config.repositorySources, name) ? config.repositorySources[name] : undefined;
  if (source === undefined)
    throw appError('unknown_repository_source', 400, 'This image link names an image archive the portal does not know.');
  return source;
}
/** The demo viewer's own link lives as long as a patient may look at the pictures in one sitting. */
export const DEMO_VIEWER_TTL_MS = 60 * 60_000;

export interface ImageViewerDeps {
  db: Database;
  clock: Clock;
  signedLinks: () => Promise<SignedLinks>;
  config: ImageViewerConfig;
  /** The server serves the demo provider: its studies open in the built-in demo viewer. */
  servesDemo: () => Promise<boolean>;
  /** Completes a due image generation first (image-generation.ts), so a waiting page sees the study at once. */
  settleGeneration?: (reportId: string) => Promise<void>;
  /** The state of a report's images without a study (asked for, failed): image-generation.ts. */
  imageState?: (reportId: string) => Promise<ImageState>;
}

/** Who opens the images: by the link itself, or directly with the external user's name (image-viewer sign-in). */
export interface ImageOpener {
  via: 'link' | 'direct';
  externalUser?: boolean;
  /** The signed-in person who opened them directly (a subject reference, never a name). */
  openedBy?: string;
}

const NO_ACCESS = 'You do not have access to these images.';
const NO_URL = 'The images cannot be opened right now.';

export function createImageViewer(deps: ImageViewerDeps) {
  const { db, clock, config } = deps;
  const repository = createResultsRepository(db);
  const audit = createAuditLogRepository(db);

  async function refuse(reason: string, now: Date): Promise<never> {
    await audit.record(linkRefusedEntry('result.images_refused', reason, now));
    throw appError('user_not_have_access_to_images', 403, NO_ACCESS);
  }

  async function viewerUrl(report: ReportStudyRow): Promise<string | null> {
    const uid = report.study_instance_uid;
    if (uid === null) return null;
    if (config.urlTemplate !== null)
      return config.urlTemplate
        .replaceAll('{studyInstanceUid}', encodeURIComponent(uid))
        .replaceAll('{accessionNumber}', encodeURIComponent(report.accession_number));
    if (!(await deps.servesDemo())) return null;
    const token = (await deps.signedLinks()).sign({ ...DEMO_VIEWER_LINK, subject: uid, ttlMs: DEMO_VIEWER_TTL_MS });
    return `/demo-viewer?${new URLSearchParams({ study: uid, token }).toString()}`;
  }

  /** The link checked: the released report it names, 'expired', or a 403 (audited). */
  async function reportOf(
    input: string,
    now: Date,
  ): Promise<{ report: ReportStudyRow; tokenId: string; holder: ImageLinkHolder } | 'expired'> {
    const checked = checkImageLink(await deps.signedLinks(), input, ['patient', 'referrer']);
    if (!checked.ok) return checked.reason === 'expired' ? 'expired' : refuse(checked.reason, now);
    const report = await repository.reportStudy(checked.reportId);
    if (report === null) return refuse('report_not_found', now);
    // The referrer reads the report as soon as it is delivered; the patient from its release.
    if (checked.holder === 'patient' && new Date(report.release_at).getTime() > now.getTime()) return refuse('report_not_released', now);
    return { report, tokenId: checked.tokenId, holder: checked.holder };
  }

  async function opened(report: ReportStudyRow, tokenId: string, holder: ImageLinkHolder, opener: ImageOpener, now: Date): Promise<void> {
    await audit.record({
      actor: opener.via === 'direct' && opener.externalUser === true ? 'external_user' : holder,
      action: 'result.images_opened',
      subjectType: 'result_report',
      subjectId: report.id,
      details: {
        accessionNumber: report.accession_number,
        tokenId,
        via: opener.via,
        ...(opener.openedBy === undefined ? {} : { openedBy: opener.openedBy }),
      },
      now,
    });
  }

  return {
    async open(input: string, repositorySource: string = DEFAULT_REPOSITORY_SOURCE): Promise<ImageViewerResponse> {
      const now = clock.now();
      const source = repositorySourceOf(config, repositorySource);
      const { preference } = source;
      const pacsUrl = preference === 'PACS' ? source.pacsUrl : null;
      const checked = await reportOf(input, now);
      if (checked === 'expired')
        return { url: null, imageViewerLinkStatus: 'EXPIRED', redirectUrl: RESULTS_EXPIRED_URL, preference, pacsUrl };
      await deps.settleGeneration?.(checked.report.id);
      if (checked.report.study_instance_uid === null) checked.report = (await repository.reportStudy(checked.report.id)) ?? checked.report;
      const url = await viewerUrl(checked.report);
      if (url !== null || pacsUrl !== null) await opened(checked.report, checked.tokenId, checked.holder, { via: 'link' }, now);
      const images =
        checked.report.study_instance_uid === null ? ((await deps.imageState?.(checked.report.id)) ?? 'NOT_GENERATED') : 'AVAILABLE';
      return { url, imageViewerLinkStatus: 'ACTIVE', redirectUrl: null, preference, pacsUrl, images };
    },

    /** Straight to the viewer; an expired link is refused here (there is no page to send it to). */
    async direct(input: string, opener: { externalUser: boolean; openedBy?: string }): Promise<ImageViewerDirectResponse> {
      const now = clock.now();
      const checked = await reportOf(input, now);
      if (checked === 'expired') return refuse('expired', now);
      const url = await viewerUrl(checked.report);
      if (url === null) throw appError('error_generating_images_url', 404, NO_URL);
      await opened(checked.report, checked.tokenId, checked.holder, { via: 'direct', ...opener }, now);
      return { url };
    },
  };
}

export type ImageViewerService = ReturnType<typeof createImageViewer>;
