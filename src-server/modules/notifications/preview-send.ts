import { SUPPORTED_LOCALES } from '@contract/api/locales';
import { EMAIL_TESTS_PER_HOUR, type EmailPreviewOptions, type EmailPreviewQuery, type EmailTestSent } from '@contract/api/notifications';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import { badRequest, tooManyRequests } from '../../platform/errors';
import { createOutboxRepository } from '../../platform/outbox/outbox-repository';
import { PREVIEW_TEMPLATE_NAMES, previewTemplate, renderPreview, type EmailPreviewDeps } from './email-preview';

/**
 * The preview page's pickers and its "send a test to me" (docs/rules/notifications.md#e-mail-preview):
 * what can be previewed with what, and the previewed mail sent for real to the staff member's own
 * address through the mail outbox, a few times an hour.
 */

/** Recent records offered per kind. */
const RECENT = 20;
const HOUR_MS = 3_600_000;
/** An address the outbox can send to; a staff username that is not one cannot receive a test. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function previewOptions(deps: EmailPreviewDeps, actor: string): Promise<EmailPreviewOptions> {
  const recent = await deps.repository.recentReferences(RECENT);
  const strip = (rows: Array<{ id: string; label: string }>) => rows.map(({ id, label }) => ({ id, label }));
  await deps.repository.audit({
    actor,
    action: 'email_preview_references_listed',
    subjectType: 'email_preview',
    subjectId: '',
    details: { booking: recent.booking.length, booking_request: recent.booking_request.length, report: recent.report.length },
    now: deps.clock.now(),
  });
  return {
    templates: PREVIEW_TEMPLATE_NAMES.map((name) => ({ name, reference: previewTemplate(name).reference })),
    languages: [...SUPPORTED_LOCALES],
    references: { booking: strip(recent.booking), booking_request: strip(recent.booking_request), report: strip(recent.report) },
  };
}

/**
 * Queues the previewed mail (with its attachments) to `username`, the signed-in staff member's
 * own address, in one transaction with its audit row; refused past EMAIL_TESTS_PER_HOUR.
 */
export async function sendTestEmail(
  deps: EmailPreviewDeps & { db: Database },
  query: EmailPreviewQuery,
  staff: { actor: string; username: string },
): Promise<EmailTestSent> {
  if (!EMAIL.test(staff.username)) {
    throw badRequest('Your staff account has no e-mail address to send a test to.');
  }
  const now = deps.clock.now();
  const sent = await deps.repository.testsSentSince(staff.actor, new Date(now.getTime() - HOUR_MS));
  if (sent.count >= EMAIL_TESTS_PER_HOUR) {
    const oldest = sent.oldest === null ? now.getTime() : Date.parse(sent.oldest);
    throw tooManyRequests(
      `At most ${EMAIL_TESTS_PER_HOUR} test mails an hour; please try again later.`,
      (oldest + HOUR_MS - now.getTime()) / 1000,
    );
  }
  const rendered = await renderPreview(deps, query);
  await deps.db.transaction(async (tx) => {
    await createOutboxRepository(tx).enqueue(
      {
        kind: 'email_test',
        recipient: staff.username,
        subject: rendered.mail.subject,
        text: rendered.mail.text,
        html: rendered.mail.html,
        attachments: rendered.mail.attachments,
      },
      now,
      tx,
    );
    await createAuditLogRepository(tx).record(
      {
        actor: staff.actor,
        action: 'email_test_sent',
        subjectType: rendered.subject.type,
        subjectId: rendered.subject.ids.join(','),
        details: { template: query.template, lang: query.lang },
        now,
      },
      tx,
    );
  });
  return { recipient: staff.username, subject: rendered.mail.subject };
}
