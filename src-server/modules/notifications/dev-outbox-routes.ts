import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DevOutboxMode } from '../../config';
import type { Queryable } from '../../db/connection';
import { errorAnswers, notFound } from '../../platform/errors';
import { escapeHtml } from '../../platform/index-html';
import { createOutboxRepository, type OutboxMail } from '../../platform/outbox/outbox-repository';
import { devOutboxState, fromThisMachine } from './dev-outbox-access';
import { registerDevHl7Outbox } from './dev-outbox-hl7';
import type { Clock } from '../../platform/clock';

/**
 * The development outbox (docs/rules/notifications.md#development-outbox): what the portal mailed, without a mail server.
 * It shows patients' names, links and one-time codes, so it exists only when dev-outbox-access.ts
 * says so (asked for, or the demo provider with no real mail or SMS), and answers only a request
 * from this machine. Otherwise every path answers 404 (not the web app), as when it is off.
 */

const MailSummarySchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  status: z.enum(['queued', 'sending', 'sent', 'failed', 'skipped']),
  attempts: z.number().int(),
  nextAttemptAt: z.string(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() })),
});
const MailDetailSchema = MailSummarySchema.extend({
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number().int(), content: z.string() })),
});

const ListQuerySchema = z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) });
const IdParamsSchema = z.strictObject({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const AttachmentParamsSchema = z.strictObject({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
  index: z.coerce.number().int().min(0).max(99),
});

/** What the mail carries: text as is, an image (the booking code) from its base64. */
function attachmentBytes(attachment: OutboxMail['attachments'][number]): Buffer {
  return Buffer.from(attachment.content, attachment.encoding === 'base64' ? 'base64' : 'utf8');
}

function summary(mail: OutboxMail): z.infer<typeof MailSummarySchema> {
  const { attachments, ...rest } = mail;
  return {
    ...rest,
    attachments: attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      size: attachmentBytes(attachment).length,
    })),
  };
}

function detail(mail: OutboxMail): z.infer<typeof MailDetailSchema> {
  return {
    ...summary(mail),
    attachments: mail.attachments.map((attachment) => ({ ...attachment, size: attachmentBytes(attachment).length })),
  };
}

const PAGE_STYLE = `body { font-family: system-ui, sans-serif; margin: 2rem; color: #1f2937; line-height: 1.5; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.5rem; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid #6b7280; vertical-align: top; }
a { color: #1d4ed8; }
a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
pre { white-space: pre-wrap; background: #f3f4f6; padding: 1rem; border: 1px solid #6b7280; }
iframe { width: 100%; height: 32rem; border: 1px solid #6b7280; }
dt { font-weight: 600; }
.scroll { overflow-x: auto; }
.scroll:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
button { font: inherit; margin-top: 0.25rem; padding: 0.2rem 0.6rem; }
@media (max-width: 40rem) { body { margin: 1rem; } }`;

function page(title: string, nonce: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)}</title>
<style nonce="${escapeHtml(nonce)}">
${PAGE_STYLE}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function renderListPage(mails: readonly OutboxMail[], hl7Sections: string, nonce: string): string {
  const e = escapeHtml;
  const rows = mails
    .map(
      (mail) =>
        `<tr><td><time datetime="${e(mail.createdAt)}">${e(mail.createdAt)}</time></td><td>${e(mail.recipient)}</td>` +
        `<td><a href="/dev/outbox/${mail.id}">${e(mail.subject)}</a></td><td>${e(mail.status)}</td>` +
        `<td>${mail.attempts}</td><td>${e(mail.lastError ?? '')}</td></tr>`,
    )
    .join('\n');
  const table =
    mails.length === 0
      ? '<p>No mail yet.</p>'
      : `<h2 id="mails">Mail</h2>
<div class="scroll" role="region" aria-labelledby="mails" tabindex="0">
<table>
<caption>The ${mails.length} most recent mails, newest first</caption>
<thead><tr><th scope="col">Created (UTC)</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last error</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>`;
  return page(
    'Development outbox',
    nonce,
    `<h1>Development outbox</h1>
<p>Mail the portal queued, and whether it was sent. The same list as JSON: <a href="/api/dev/outbox">/api/dev/outbox</a>.</p>
${table}
${hl7Sections}`,
  );
}

function renderMailPage(mail: OutboxMail, nonce: string): string {
  const e = escapeHtml;
  const attachments = mail.attachments
    .map(
      (attachment, index) =>
        `<li><a href="/dev/outbox/${mail.id}/attachments/${index}">${e(attachment.filename)}</a> (${e(attachment.contentType)})</li>`,
    )
    .join('\n');
  return page(
    `Mail ${mail.id}: ${mail.subject}`,
    nonce,
    `<p><a href="/dev/outbox">Back to the outbox</a></p>
<h1>${e(mail.subject)}</h1>
<dl>
<dt>To</dt><dd>${e(mail.recipient)}</dd>
<dt>Kind</dt><dd>${e(mail.kind)}</dd>
<dt>Status</dt><dd>${e(mail.status)} after ${mail.attempts} attempt${mail.attempts === 1 ? '' : 's'}</dd>
<dt>Created (UTC)</dt><dd>${e(mail.createdAt)}</dd>
<dt>Sent (UTC)</dt><dd>${e(mail.sentAt ?? 'not yet')}</dd>
${mail.lastError === null ? '' : `<dt>Last error</dt><dd>${e(mail.lastError)}</dd>`}
</dl>
<h2>Attachments</h2>
${mail.attachments.length === 0 ? '<p>None.</p>' : `<ul>\n${attachments}\n</ul>`}
<h2>Plain text</h2>
<pre>${e(mail.text)}</pre>
${
  mail.html === null
    ? ''
    : `<h2>HTML</h2>
<p><a href="/dev/outbox/${mail.id}/html">Open the HTML version on its own</a></p>
<iframe src="/dev/outbox/${mail.id}/html" title="HTML version of the mail" sandbox></iframe>`
}`,
  );
}

/** A file name safe inside a quoted Content-Disposition parameter. */
function safeFilename(filename: string): string {
  const cleaned = filename.replace(/[^\w.-]/g, '_').slice(0, 100);
  return cleaned === '' ? 'attachment' : cleaned;
}

function html(reply: FastifyReply, body: string): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .send(body);
}

/**
 * Who may call: nobody when off; when on, only a direct request from this machine (loopback
 * peer, loopback Host, no proxy headers). Everyone else gets 404.
 * @param mode - config.mailDevOutbox, resolved against the database once, when the server is
 * ready: the routes are built before the database has opened (main.ts), and a query here would
 * hold the build up.
 */
export function registerDevOutboxRoutes(app: FastifyInstance, db: Queryable, mode: DevOutboxMode, clock: Clock): void {
  let enabled = false;
  app.addHook('onReady', async () => {
    ({ enabled } = await devOutboxState(db, mode));
  });
  // The API documentation is written before that: it lists the routes only where they are asked for.
  const hidden = mode !== 'on';
  const outbox = createOutboxRepository(db);
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Only when enabled, and only from this machine; to anyone else the routes do not exist.
  app.defineAccessCheck('dev-loopback', async (request: FastifyRequest): Promise<void> => {
    if (!enabled || !fromThisMachine(request)) throw notFound('Not found.');
  });
  const hl7 = registerDevHl7Outbox(app, db, clock);
  const mailOr404 = async (id: number): Promise<OutboxMail> => {
    const mail = await outbox.find(id);
    if (mail === null) throw notFound('There is no mail with this id in the outbox.');
    return mail;
  };
  const errors = errorAnswers(400, 404, 503);

  api.get(
    '/api/dev/outbox',
    {
      config: { access: 'dev-loopback' },

      schema: {
        // Listed in the API documentation only where the routes answer.
        hide: hidden,
        tags: ['dev'],
        summary: 'Development only: the most recent mails in the outbox, newest first',
        querystring: ListQuerySchema,
        response: { 200: z.object({ mails: z.array(MailSummarySchema) }), ...errors },
      },
    },
    async (request) => ({ mails: (await outbox.listRecent(request.query.limit)).map(summary) }),
  );

  api.get(
    '/api/dev/outbox/:id',
    {
      config: { access: 'dev-loopback' },

      schema: {
        // Listed in the API documentation only where the routes answer.
        hide: hidden,
        tags: ['dev'],
        summary: 'Development only: one mail with its attachments',
        params: IdParamsSchema,
        response: { 200: MailDetailSchema, ...errors },
      },
    },
    async (request) => detail(await mailOr404(request.params.id)),
  );

  api.get(
    '/dev/outbox',
    { config: { access: 'dev-loopback' }, schema: { hide: true, querystring: ListQuerySchema } },
    async (request, reply) =>
      html(reply, renderListPage(await outbox.listRecent(request.query.limit), await hl7.render(request.query.limit), request.cspNonce)),
  );

  api.get(
    '/dev/outbox/:id',
    { config: { access: 'dev-loopback' }, schema: { hide: true, params: IdParamsSchema } },
    async (request, reply) => html(reply, renderMailPage(await mailOr404(request.params.id), request.cspNonce)),
  );

  api.get(
    '/dev/outbox/:id/html',
    {
      config: { access: 'dev-loopback' },

      schema: { hide: true, params: IdParamsSchema },
      // After the global security-headers hook: the mail's own HTML runs sandboxed, with its
      // inline styles, and with no script, network or same-origin access.
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode === 200) {
          reply.header(
            'content-security-policy',
            "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
          );
        }
        return payload;
      },
    },
    async (request, reply) => {
      const mail = await mailOr404(request.params.id);
      if (mail.html === null) throw notFound('This mail has no HTML version.');
      return html(reply, mail.html);
    },
  );

  api.get(
    '/dev/outbox/:id/attachments/:index',
    { config: { access: 'dev-loopback' }, schema: { hide: true, params: AttachmentParamsSchema } },
    async (request, reply) => {
      const mail = await mailOr404(request.params.id);
      const attachment = mail.attachments[request.params.index];
      if (attachment === undefined) throw notFound('This mail has no such attachment.');
      return reply
        .header('content-type', attachment.contentType)
        .header('content-disposition', `attachment; filename="${safeFilename(attachment.filename)}"`)
        .header('cache-control', 'no-store')
        .send(attachmentBytes(attachment));
    },
  );
}
