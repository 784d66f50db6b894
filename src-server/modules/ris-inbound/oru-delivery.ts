import type { Hl7Message } from '@medplum/core';
import { ResultDeliverySchema } from '@contract/api/results';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { parseHl7Timestamp } from '../../platform/hl7/hl7-read';
import type { InboundVerdict } from '../../platform/hl7/mllp-listener';
import { createHl7OutboundRepository } from '../../platform/hl7/outbound-repository';
import { renderReportPdf, type ResultDeliveryService } from '../results/public';
import { readOruReport, reportedAt } from './oru-report';
import { badField, unknownAppointment } from './refusal';

/**
 * An ORU^R01 made into the patient's result through the results delivery (docs/rules/results.md#delivery),
 * which stores it once per accession number and queues its notices. A report sent as text alone is
 * rendered as the report PDF the patient downloads (the same renderer as the demo provider's). The
 * patient may read it `releaseDelayDays` after it was reported (OBR-22; else the message's time,
 * MSH-7, so a message sent again asks for the same release).
 */

export interface OruDeliveryDeps {
  db: Queryable;
  clock: Clock;
  delivery: ResultDeliveryService;
  /** HL7_RESULT_RELEASE_DAYS. */
  releaseDelayDays: number;
  /** The provider's name, heading a report rendered from text. */
  providerName: () => Promise<string>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const FINAL = new Set(['F', 'C']);

export function createOruDelivery(deps: OruDeliveryDeps) {
  const appointments = createHl7OutboundRepository(deps.db);
  return async function deliverOru(message: Hl7Message): Promise<InboundVerdict & { appointmentId?: string }> {
    const report = readOruReport(message);
    if (!FINAL.has(report.status))
      return { code: 'AA', text: `Not a final report (OBR-25 '${report.status.slice(0, 2)}'): nothing is shown until the final one.` };
    const [facts] = await appointments.facts([report.appointmentId]);
    if (facts === undefined) throw unknownAppointment('OBR^1^2');
    const timeZone = facts.clinic.timeZone;
    const reported = reportedAt(report, timeZone) ?? parseHl7Timestamp(message.header.getComponent(7, 1), timeZone) ?? deps.clock.now();
    const pdfBase64 =
      report.pdfBase64 ??
      (
        await renderReportPdf({
          providerName: await deps.providerName(),
          patientName: `${facts.patient.firstName} ${facts.patient.lastName}`,
          dateOfBirth: facts.patient.dateOfBirth,
          examName: facts.exam.name,
          clinicName: facts.clinic.name,
          examDate: facts.start,
          timeZone,
          accessionNumber: report.accessionNumber,
          referrerName: report.referrer.name,
          reportText: report.reportText,
          ...(report.radiologistName === null ? {} : { radiologistName: report.radiologistName }),
        })
      ).toString('base64');
    const parsed = ResultDeliverySchema.safeParse({
      accessionNumber: report.accessionNumber,
      appointmentSlug: report.appointmentId,
      reportText: report.reportText,
      reportPdfBase64: pdfBase64,
      referrer: { name: report.referrer.name, providerNumber: report.referrer.providerNumber },
      releaseAt: new Date(reported.getTime() + deps.releaseDelayDays * DAY_MS).toISOString(),
      study: report.studyInstanceUid === null ? null : { studyInstanceUid: report.studyInstanceUid },
    });
    if (!parsed.success) throw badField('OBX^1^5', parsed.error.issues[0]?.message ?? 'The report could not be read.');
    const answer = await deps.delivery.deliver(parsed.data);
    return {
      code: 'AA',
      appointmentId: report.appointmentId,
      text:
        answer.outcome === 'created'
          ? 'Result stored; the patient is told when it is released.'
          : 'Result received before; nothing changed.',
    };
  };
}
