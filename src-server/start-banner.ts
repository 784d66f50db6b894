import type { Config } from './config';
import type { Queryable } from './db/connection';
import { liveDemoAppointmentKey } from './db/seed/demo-marker';
import { devOutboxState } from './modules/notifications/dev-outbox-access';

/**
 * The lines main.ts prints once the server listens. Apart from the demo provider's own demo
 * appointment (src-server/db/seed/demo-marker.ts), no booking key is ever printed: the terminal
 * and its log are no place for a real patient's link.
 */

export interface BannerFacts {
  /** How the database is reached, password hidden. */
  database: string;
  /** The demo provider was seeded by this start. */
  seededNow: boolean;
  /** The web build's index.html, when it is missing. */
  missingIndexHtml: string | null;
  /** The demo RIS's HL7 listener stands in for the RIS (src-server/dev-ris/hl7-receiver.ts). */
  demoHl7Ris?: boolean;
  /** Where the portal's MLLP listener for the RIS listens (app.hl7Listener), when it does. */
  hl7Listener?: { host: string; port: number } | null;
}

export async function startBanner(db: Queryable, config: Config, facts: BannerFacts): Promise<string[]> {
  const url = config.publicUrl;
  const lines = [
    `Portal server ready at ${url} (version ${config.appVersion}, ${config.appVersionHash})`,
    `  database: ${facts.database}${facts.seededNow ? ' (demo provider seeded now)' : ''}`,
  ];
  if (facts.missingIndexHtml !== null) {
    lines.push(`  web app: not built (${facts.missingIndexHtml} is missing): run npm run build:web; the API works meanwhile`);
  }
  const demoKey = await liveDemoAppointmentKey(db);
  if (demoKey !== null) lines.push(`  demo appointment: ${url}/appointments/${demoKey}`);
  lines.push(`  kiosk:            ${url}/kiosk?kioskMode=true`);
  lines.push(`  embedded page:    ${url}/iframe/select-region`);
  lines.push(`  API operations:   ${url}/api/docs`);
  const outbox = await devOutboxState(db, config.mailDevOutbox);
  if (outbox.enabled) {
    lines.push(
      `  mail outbox:      ${url}/dev/outbox (on: ${outbox.reason}; answers only this machine; MAIL_DEV_OUTBOX_ENABLED=false hides it)`,
    );
  }
  if (config.hl7 !== null) {
    const demo = facts.demoHl7Ris === true;
    lines.push(
      `  HL7 to the RIS:   ${config.hl7.host}:${config.hl7.port}${demo ? ' (the demo RIS: it acknowledges every message; they show on /dev/outbox)' : ''}`,
    );
    // Check-ins are hand-offs (ris_handoff), not outbox rows: said apart, so no one looks for them on /dev/outbox.
    if (config.risCheckIn === 'hl7') lines.push('  check-ins:        to the RIS as HL7 ADT^A05 and ADT^A04 (RIS_CHECK_IN=hl7)');
  }
  if (facts.hl7Listener) {
    const demo = config.hl7Inbound?.port === 0;
    lines.push(
      `  HL7 from the RIS: ${facts.hl7Listener.host}:${facts.hl7Listener.port}${demo ? ' (the demo RIS reports an appointment from /dev/outbox: "Report it from the demo RIS")' : ''}`,
    );
  }
  return lines;
}
