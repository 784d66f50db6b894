import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';

/** The log of messages from the RIS (migration 0041): who sent which message, and what the portal answered. */

export type InboundRecord = {
  sendingApplication: string;
  controlId: string;
  messageType: string;
  messageSha256: string;
  ackCode: 'AA' | 'AE' | 'AR';
  outcome: string;
  appointmentId: string | null;
};

export type InboundRow = InboundRecord & { receivedAt: string };

const COLUMNS = `sending_application as "sendingApplication", control_id as "controlId", message_type as "messageType",
  message_sha256 as "messageSha256", ack_code as "ackCode", outcome, appointment_id::text as "appointmentId",
  ${isoTimestamp('received_at', '"receivedAt"')}`;

export function createInboundRepository(db: Queryable) {
  return {
    async find(sendingApplication: string, controlId: string): Promise<InboundRow | null> {
      const rows = await db.query<InboundRow>(`select ${COLUMNS} from hl7_inbound where sending_application = $1 and control_id = $2`, [
        sendingApplication,
        controlId,
      ]);
      return rows[0] ?? null;
    },

    /** The answer given; a message sent again after AE or AR (and acted on again) keeps its first arrival time. */
    async record(entry: InboundRecord, now: Date): Promise<void> {
      await db.query(
        `insert into hl7_inbound (sending_application, control_id, message_type, message_sha256, ack_code, outcome, appointment_id, received_at)
         values ($1, $2, $3, $4, $5, $6, $7::uuid, $8)
         on conflict (sending_application, control_id) do update
            set ack_code = excluded.ack_code, outcome = excluded.outcome, appointment_id = excluded.appointment_id
          where hl7_inbound.ack_code <> 'AA' and hl7_inbound.message_sha256 = excluded.message_sha256`,
        [
          entry.sendingApplication,
          entry.controlId,
          entry.messageType,
          entry.messageSha256,
          entry.ackCode,
          entry.outcome.slice(0, 300),
          entry.appointmentId,
          now.toISOString(),
        ],
      );
    },

    /** The most recent, newest first (the development outbox page). */
    listRecent(limit: number): Promise<InboundRow[]> {
      return db.query<InboundRow>(`select ${COLUMNS} from hl7_inbound order by id desc limit $1`, [limit]);
    },
  };
}
