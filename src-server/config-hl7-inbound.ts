import { isIP } from 'node:net';
import type { Rule, Values } from './config-env';
import { refuse, type Parse } from './config-variable';

/**
 * HL7 v2 from the provider's RIS (docs/integration/hl7.md#from-the-ris): HL7_LISTEN_ADDRESS opens
 * the portal's MLLP listener for ORU^R01 reports and SIU cancellations; HL7_LISTEN_ALLOW names the
 * RIS's addresses (MLLP has no authentication of its own); HL7_RESULT_RELEASE_DAYS is when the
 * patient may read a report the RIS sent.
 */

export interface Hl7InboundConfig {
  host: string;
  port: number;
  allowedAddresses: string[];
  releaseDelayDays: number;
}

const LOOPBACK = ['127.0.0.1', '::1'];

export const hl7ListenAddress: Parse<{ host: string; port: number } | null> = (raw) => {
  if (raw === undefined) return null;
  const match = /^\[?([^\]\s]+?)\]?:(\d{1,5})$/.exec(raw);
  const port = Number(match?.[2]);
  if (match === null || isIP(match[1] ?? '') === 0 || port < 1 || port > 65535)
    return refuse('must be ip:port the MLLP listener binds, such as 10.0.0.5:2576 or 127.0.0.1:2576 ([::1]:2576 for IPv6)');
  return { host: match[1] ?? '', port };
};

export const hl7ListenAllow: Parse<string[] | null> = (raw) => {
  if (raw === undefined) return null;
  const addresses = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const bad = addresses.find((address) => isIP(address) === 0);
  if (addresses.length === 0 || bad !== undefined)
    return refuse(
      `must be the RIS's IP addresses separated by commas, such as 10.0.0.21,10.0.0.22${bad === undefined ? '' : ` ('${bad.slice(0, 40)}' is not one)`}`,
    );
  return addresses;
};

/** Listening beyond this machine needs the RIS's addresses: otherwise anyone on the network could send reports. */
export const hl7AllowRequired: Rule = ({ text, values }, problem) => {
  const address = values.HL7_LISTEN_ADDRESS;
  if (address !== null && address !== undefined && !LOOPBACK.includes(address.host) && text.HL7_LISTEN_ALLOW === undefined)
    problem(
      'HL7_LISTEN_ALLOW',
      `is required when HL7_LISTEN_ADDRESS listens beyond this machine (${address.host}): name the RIS's addresses`,
    );
};

export function hl7InboundOf(values: Values): Hl7InboundConfig | null {
  const address = values.HL7_LISTEN_ADDRESS;
  if (address === null) return null;
  return { ...address, allowedAddresses: values.HL7_LISTEN_ALLOW ?? LOOPBACK, releaseDelayDays: values.HL7_RESULT_RELEASE_DAYS };
}
