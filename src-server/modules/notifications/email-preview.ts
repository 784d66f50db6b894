import type { EmailPreview, EmailPreviewQuery } from '@contract/api/notifications';
import type { SupportedLocale } from '@contract/api/locales';
import type { Clock } from '../../platform/clock';
import { badRequest, notFound } from '../../platform/errors';
import {
  BOOKING_CONFIRMATION_KIND,
  renderBookingConfirmationMail,
  type BookingConfirmation,
  type RenderedMail,
} from './booking-confirmation';
import type { PreviewBookingRow, PreviewRepository } from './preview-repository';

/**
 * The e-mail preview (docs/rules/notifications.md#e-mail-preview): staff see what a mail looks
 * like for a real record in one locale. Each entry of PREVIEW_TEMPLATES loads its record and
 * renders it with the same function that renders the mail the outbox sends; nothing is queued.
 */

export interface PreviewContext {
  locale: SupportedLocale;
  publicUrl: string;
  providerName: string;
  clock: Clock;
}

/** The record a preview names, as the audit row identifies it (never a booking key: it grants access). */
export interface PreviewSubject {
  type: string;
  ids: string[];
}

export interface PreviewTemplate {
  /** Renders the mail for the reference, or null when the reference names no record. */
  render(
    repository: PreviewRepository,
    referenceId: string,
    context: PreviewContext,
  ): Promise<{ mail: RenderedMail; subject: PreviewSubject } | null>;
}

/** Statuses that moved away: the booking continues in its newer rows (appointments/change-rules.ts MOVED). */
const MOVED = new Set(['RESCHEDULED', 'CHANGED']);

/** The confirmation as the booking and reschedule flows build it, from the booking's rows. */
export function confirmationOf(rows: readonly PreviewBookingRow[]): BookingConfirmation | null {
  const live = rows.filter((row) => !MOVED.has(row.status));
  const current = live.length > 0 ? live : [...rows];
  const first = current[0];
  if (first === undefined) return null;
  const walkIn = current.find((row) => row.walk_in_exam !== null)?.walk_in_exam ?? null;
  return {
    bookingKey: first.booking_key,
    patient: { title: first.title, firstName: first.first_name, lastName: first.last_name, email: first.email ?? '' },
    clinic: {
      name: first.clinic_name,
      address: `${first.street}, ${first.suburb} ${first.state} ${first.postcode}`,
      phone: first.phone,
      timeZone: first.time_zone,
    },
    appointments: current.map((row) => ({
      examName: row.exam_name,
      modalityName: row.modality_name,
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      ...(row.preparation_notes === '' ? {} : { preparationNotes: row.preparation_notes }),
    })),
    ...(walkIn === null ? {} : { walkInExam: walkIn }),
    staffBooking: first.staff_booking,
    pending: current.some((row) => row.status === 'PENDING'),
  };
}

/** Every template staff may preview, by the name the query gives; a later mail adds one entry. */
export const PREVIEW_TEMPLATES: Readonly<Record<string, PreviewTemplate>> = Object.freeze({
  [BOOKING_CONFIRMATION_KIND]: {
    async render(repository, referenceId, context) {
      const rows = await repository.bookingRows(referenceId);
      const confirmation = confirmationOf(rows);
      if (confirmation === null) return null;
      const mail = await renderBookingConfirmationMail(confirmation, context);
      return { mail, subject: { type: 'appointment', ids: rows.map((row) => row.id) } };
    },
  },
} satisfies Record<string, PreviewTemplate>);

export const PREVIEW_TEMPLATE_NAMES: readonly string[] = Object.keys(PREVIEW_TEMPLATES);

export function previewTemplate(name: string): PreviewTemplate {
  const template = Object.hasOwn(PREVIEW_TEMPLATES, name) ? PREVIEW_TEMPLATES[name] : undefined;
  if (template === undefined) {
    const message = `Unknown e-mail template "${name}"; known templates: ${PREVIEW_TEMPLATE_NAMES.join(', ')}.`;
    throw badRequest(message, [{ in: 'querystring/template', message }], 'validation_failed');
  }
  return template;
}

export interface EmailPreviewDeps {
  repository: PreviewRepository;
  publicUrl: string;
  clock: Clock;
}

/**
 * Renders the preview and writes the audit row naming the staff member.
 * @param query - template, lang and referenceId, already validated against the contract.
 * @param actor - the staff member (`staff:<ref>`, staff-access subjectRef).
 */
export async function previewEmail(deps: EmailPreviewDeps, query: EmailPreviewQuery, actor: string): Promise<EmailPreview> {
  const template = previewTemplate(query.template);
  const providerName = (await deps.repository.providerName()) ?? 'Radiology';
  const rendered = await template.render(deps.repository, query.referenceId, {
    locale: query.lang,
    publicUrl: deps.publicUrl,
    providerName,
    clock: deps.clock,
  });
  if (rendered === null) throw notFound('No appointment or booking has this reference id.');
  await deps.repository.audit({
    actor,
    action: 'email_previewed',
    subjectType: rendered.subject.type,
    subjectId: rendered.subject.ids.join(','),
    details: { template: query.template, lang: query.lang },
    now: deps.clock.now(),
  });
  return { subject: rendered.mail.subject, html: rendered.mail.html, text: rendered.mail.text };
}
