import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { notFound } from '../../platform/errors';
import { escapeHtml } from '../../platform/index-html';
import { createHl7OutboundRepository, type Hl7OutboundRepository } from '../../platform/hl7/outbound-repository';
import { createInboundRepository, type InboundRow } from '../ris-inbound/public';

/**
 * The HL7 part of the development outbox (docs/integration/hl7.md#the-demo-ris): the messages to
 * the RIS, the messages from it with the ACK the portal gave, and, where the portal listens for
 * the RIS, a button per booked appointment that has the demo RIS send its report (ORU^R01) back.
 */

type Hl7Row = Awaited<ReturnType<Hl7OutboundRepository['listRecent']>>[number];

const e = escapeHtml;

const mostRecent = (count: number): string => (count === 1 ? 'The one message so far' : `The ${count} most recent, newest first`);

function reportButton(appointmentId: string): string {
  return `<form method="post" action="/dev/outbox/hl7/reports/${e(appointmentId)}"><button type="submit">Report it from the demo RIS</button></form>`;
}

function outboundSection(messages: readonly Hl7Row[], canReport: boolean): string {
  if (messages.length === 0) return '';
  const rows = messages
    .map(
      (message) =>
        `<tr><td><time datetime="${e(message.createdAt)}">${e(message.createdAt)}</time></td><td>${e(message.event)}</td>` +
        `<td>${e(message.appointmentId)}${canReport && message.event === 'SIU_S12' ? reportButton(message.appointmentId) : ''}</td>` +
        `<td>${e(message.status)}</td><td>${message.attempts}</td><td>${e(message.lastError ?? '')}</td>` +
        `<td><details><summary>${e(message.controlId)}</summary><pre>${e(message.message.replace(/\r/g, '\n'))}</pre></details></td></tr>`,
    )
    .join('\n');
  return `<h2 id="to-ris">HL7 messages to the RIS</h2>
<div class="scroll" role="region" aria-labelledby="to-ris" tabindex="0">
<table>
<caption>${mostRecent(messages.length)}; sent means the RIS acknowledged it (AA)</caption>
<thead><tr><th scope="col">Queued (UTC)</th><th scope="col">Event</th><th scope="col">Appointment</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Message</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>`;
}

function inboundSection(messages: readonly InboundRow[]): string {
  if (messages.length === 0) return '';
  const rows = messages
    .map(
      (message) =>
        `<tr><td><time datetime="${e(message.receivedAt)}">${e(message.receivedAt)}</time></td><td>${e(message.messageType)}</td>` +
        `<td>${e(message.sendingApplication)}</td><td>${e(message.controlId)}</td><td>${e(message.appointmentId ?? '')}</td>` +
        `<td>${e(message.ackCode)}</td><td>${e(message.outcome)}</td></tr>`,
    )
    .join('\n');
  return `<h2 id="from-ris">HL7 messages from the RIS</h2>
<div class="scroll" role="region" aria-labelledby="from-ris" tabindex="0">
<table>
<caption>${mostRecent(messages.length)}, with the portal's answer (AA done, AE refused with the reason, AR not taken)</caption>
<thead><tr><th scope="col">Received (UTC)</th><th scope="col">Message</th><th scope="col">From</th><th scope="col">Control id</th><th scope="col">Appointment</th><th scope="col">ACK</th><th scope="col">What happened</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>`;
}

export interface DevHl7Outbox {
  /** The page's HL7 sections. */
  render(limit: number): Promise<string>;
}

const ReportParamsSchema = z.strictObject({ appointmentId: z.uuid() });

/**
 * POST /dev/outbox/hl7/reports/:appointmentId (the page's button, a plain form): the demo RIS sends
 * that appointment's report to the portal's listener, then the page shows the ACK. The CSRF guard
 * (platform/plugins/csrf-guard.ts) refuses it from any other site; the page sends its Origin for it
 * (its referrer policy is same-origin).
 */
export function registerDevHl7Outbox(app: FastifyInstance, db: Queryable, clock: Clock): DevHl7Outbox {
  const outbound = createHl7OutboundRepository(db);
  const inbound = createInboundRepository(db);
  void app.register(async (scope) => {
    // The button's form has no fields: its body is read as nothing.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) =>
      done(null, {}),
    );
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/dev/outbox/hl7/reports/:appointmentId',
        { config: { access: 'dev-loopback' }, schema: { hide: true, params: ReportParamsSchema } },
        async (request, reply) => {
          const listener = app.hl7Listener.address();
          if (listener === null) throw notFound('The portal has no HL7 listener for the RIS (HL7_LISTEN_ADDRESS).');
          // The demo RIS's code loads only when it is asked to report.
          const { sendDemoReport } = await import('../../dev-ris/hl7-report');
          const sent = await sendDemoReport(db, { host: listener.host, port: listener.port }, request.params.appointmentId, clock.now());
          if (sent === null) throw notFound('There is no such appointment.');
          return reply.redirect('/dev/outbox#from-ris', 303);
        },
      );
  });
  return {
    async render(limit) {
      const canReport = app.hl7Listener.address() !== null;
      return `${outboundSection(await outbound.listRecent(limit), canReport)}\n${inboundSection(await inbound.listRecent(limit))}`;
    },
  };
}
