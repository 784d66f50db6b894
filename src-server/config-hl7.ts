import type { Values } from './config-env';
import { refuse, type Parse } from './config-variable';

/**
 * HL7 v2 to the provider's RIS over MLLP (docs/integration/hl7.md): HL7_RIS_ADDRESS turns it on;
 * the names the messages' headers give the RIS and the provider are optional.
 */

export interface Hl7Config {
  host: string;
  port: number;
  /** MSH-5 and MSH-6: the RIS as its interface expects to be named. */
  receivingApplication: string;
  receivingFacility: string;
  /** MSH-4: the provider. */
  sendingFacility: string;
}

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export const hl7RisAddress: Parse<{ host: string; port: number } | null> = (raw) => {
  if (raw === undefined) return null;
  const match = /^([^:\s]+):(\d{1,5})$/.exec(raw);
  const port = Number(match?.[2]);
  if (match === null || !HOST.test(match[1] ?? '') || port < 1 || port > 65535)
    return refuse('must be host:port of the RIS’s MLLP listener, such as ris.example.internal:2575');
  return { host: match[1] ?? '', port };
};

/** An HL7 HD namespace id: letters, digits, spaces and - . _ (no delimiter characters). */
export const hl7Name: Parse<string | null> = (raw) => {
  if (raw === undefined) return null;
  return /^[A-Za-z0-9 ._-]{1,40}$/.test(raw) ? raw : refuse('must be 1 to 40 letters, digits, spaces, dots, dashes or underscores');
};

export function hl7Of(values: Values): Hl7Config | null {
  const address = values.HL7_RIS_ADDRESS;
  if (address === null) return null;
  return {
    ...address,
    receivingApplication: values.HL7_RIS_APPLICATION ?? 'RIS',
    receivingFacility: values.HL7_RIS_FACILITY ?? '',
    sendingFacility: values.HL7_SENDING_FACILITY ?? '',
  };
}
