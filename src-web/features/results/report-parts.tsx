import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/button';
import { useEmbedded } from '../../shell/embedded';
import { formatInstant, formatStartTime } from '../booking/public';
import type { ImageOpener, ImagesProblem } from './image-opener';
import { reportParagraphs } from './report-sections';
import './results.css';

/**
 * The pieces of a released report that the result page, the history list and the shared results
 * page show alike (and the referrer's quick report): the report text, its PDF links and View images.
 */

/**
 * The clinic and the exam date (in the clinic's zone) as two entries of a details list (dl), the
 * way every result, history and shared report heads itself.
 */
export function ExamFactItems({
  exam,
  dateTestId,
}: {
  exam: { clinicName: string; startsAt: string; timeZone: string };
  dateTestId?: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <div>
        <dt>{t('results.clinic')}</dt>
        <dd>{exam.clinicName}</dd>
      </div>
      <div>
        <dt>{t('results.examDate')}</dt>
        <dd>
          <time dateTime={exam.startsAt} data-testid={dateTestId}>
            {formatStartTime(exam.startsAt, i18n.language, exam.timeZone, true)}
          </time>
        </dd>
      </div>
    </>
  );
}

/** The referring doctor and the report's date as two entries of a details list (dl). */
export function ReportFactItems({ report }: { report: { referrerName: string; reportedAt: string; timeZone: string } }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <div>
        <dt>{t('results.report.referrer')}</dt>
        <dd>{report.referrerName}</dd>
      </div>
      <div>
        <dt>{t('results.report.reportedAt')}</dt>
        <dd>
          <time dateTime={report.reportedAt}>
            {formatInstant(report.reportedAt, i18n.language, report.timeZone, { day: 'numeric', month: 'long', year: 'numeric' })}
          </time>
        </dd>
      </div>
    </>
  );
}

/** The report's text, as text: React escapes it, so markup in a report is shown, never run. */
export function ReportText({ text }: { text: string }) {
  return (
    <div className="pp-result-report-text" data-testid="report-text">
      {reportParagraphs(text).map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </div>
  );
}

/** The images' human label for the viewer: the exam (modality and body part) and its date, never a study UID. */
export function useImagesLabel(exam: { examName: string; startsAt: string; timeZone: string }): string {
  const { t, i18n } = useTranslation();
  const date = formatInstant(exam.startsAt, i18n.language, exam.timeZone, { day: 'numeric', month: 'long', year: 'numeric' });
  return t('results.images.label', { exam: exam.examName, date });
}

/** View (new tab, noopener) and Download of a report PDF. */
export function ReportPdfLinks({
  viewUrl,
  downloadUrl,
  onOpen,
}: {
  viewUrl: string | undefined;
  downloadUrl: string | undefined;
  /** Called as a link is followed (the shared page checks that the share still stands). */
  onOpen?: () => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  return (
    <>
      <p id={hintId} className="pp-muted">
        {t('results.report.newTab')}
      </p>
      <div className="pp-button-row">
        <ButtonLink href={viewUrl} target="_blank" rel="noopener noreferrer" aria-describedby={hintId} onClick={onOpen}>
          {t('results.report.view')}
        </ButtonLink>
        <ButtonLink variant="secondary" href={downloadUrl} download onClick={onOpen}>
          {t('results.report.download')}
        </ButtonLink>
      </div>
    </>
  );
}

function imagesProblemText(t: TFunction, problem: ImagesProblem): string {
  switch (problem) {
    case 'noUrl':
      return t('message.error_generating_images_url');
    case 'noAccess':
      return t('message.user_not_have_access_to_images');
    case 'failed':
      return t('results.images.failed');
  }
}

/**
 * View images for a report with a study (nothing when it has none).
 *
 * @param level - the heading level of "Images" (3 on the result page, 4 inside a list item).
 */
export const ImagesAction = observer(function ImagesAction({
  opener,
  hasLink,
  onOpen,
  level = 3,
}: {
  opener: ImageOpener;
  hasLink: boolean;
  onOpen: () => void;
  level?: 3 | 4;
}) {
  const { t } = useTranslation();
  const embedded = useEmbedded();
  const titleId = useId();
  const hintId = useId();
  if (!hasLink) return null;
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <section className="pp-result-images" aria-labelledby={titleId}>
      <Heading id={titleId}>{t('results.images.title')}</Heading>
      {embedded && (
        <p id={hintId} className="pp-muted">
          {t('results.images.newTab')}
        </p>
      )}
      <Button aria-disabled={opener.opening} aria-describedby={embedded ? hintId : undefined} onClick={onOpen}>
        {t('results.images.view')}
      </Button>
      {opener.opening && (
        <p role="status" className="pp-muted">
          {t('results.images.opening')}
        </p>
      )}
      {opener.problem && (
        <p role="alert" className="pp-notice pp-notice-error" data-problem={opener.problem}>
          {imagesProblemText(t, opener.problem)}
        </p>
      )}
    </section>
  );
});
