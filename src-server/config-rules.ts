import { parseS3Settings, type S3Settings } from './platform/storage';
import type { ParsedVariables, Rule, Values } from './config-env';
import { identityComplete } from './config-identity';
import { pacsUrlForPacs } from './config-results';
import { risCheckInTarget, risSecretRequired } from './config-ris';
import { hl7AllowRequired } from './config-hl7-inbound';
import { quote } from './config-variable';

/**
 * The cross-variable rules parseConfig applies after every variable's own parse (config-env.ts):
 * what one variable's parser cannot see. A rule only reports; config.ts builds the values.
 */

/** SMTP_HOST needs a sender, and a user name goes with a password. */
export const smtpComplete: Rule = ({ text }, problem) => {
  if (text.SMTP_HOST === undefined) return;
  if (text.SMTP_FROM === undefined) problem('SMTP_FROM', 'is required when SMTP_HOST is set, e.g. "Portal <portal@example.com>"');
  if ((text.SMTP_USER === undefined) !== (text.SMTP_PASSWORD === undefined)) {
    problem(text.SMTP_USER === undefined ? 'SMTP_USER' : 'SMTP_PASSWORD', 'set SMTP_USER and SMTP_PASSWORD together, or neither');
  }
};

export const smsKeyRequired: Rule = ({ text }, problem) => {
  if (text.SMS_PROVIDER_URL !== undefined && text.SMS_PROVIDER_API_KEY === undefined)
    problem('SMS_PROVIDER_API_KEY', 'is required when SMS_PROVIDER_URL is set');
};

/** The names of the real deliveries that are configured (SMTP_HOST, SMS_PROVIDER_URL). */
export function realDelivery(text: ParsedVariables['text']): string[] {
  return (['SMTP_HOST', 'SMS_PROVIDER_URL'] as const).filter((name) => text[name] !== undefined);
}

/**
 * The development outbox shows patients' mail and one-time codes: never beside real mail or SMS
 * (it would only expose what is really sent) and never in production.
 */
export const devOutboxAllowed: Rule = ({ text, values }, problem) => {
  if (values.MAIL_DEV_OUTBOX_ENABLED !== true) return;
  if (values.NODE_ENV === true) {
    problem('MAIL_DEV_OUTBOX_ENABLED', "true is not allowed with NODE_ENV=production: the outbox shows patients' mail; unset it");
  }
  const real = realDelivery(text);
  if (real.length > 0) {
    problem(
      'MAIL_DEV_OUTBOX_ENABLED',
      `true is not allowed with ${real.join(' and ')} set: real messages go out, so the outbox would only expose them; unset one of them`,
    );
  }
};

/** Production must not fall back to development defaults that leak or lose patients' data. */
export const productionRequirements: Rule = ({ text, values }, problem) => {
  if (values.NODE_ENV !== true) return;
  if (text.SESSION_SECRET === undefined) {
    problem(
      'SESSION_SECRET',
      'is required with NODE_ENV=production: set it to a random value of at least 32 characters, e.g. the output of `openssl rand -hex 32`',
    );
  }
  if (text.PUBLIC_URL === undefined) {
    problem(
      'PUBLIC_URL',
      'is required with NODE_ENV=production: set it to the https address patients use, e.g. https://portal.example.com',
    );
  } else if (values.PUBLIC_URL?.startsWith('http:') === true) {
    // A malformed PUBLIC_URL has no value: its own line already speaks.
    problem(
      'PUBLIC_URL',
      `must be https with NODE_ENV=production (patients' links and sign-ins travel over it), got ${quote(text.PUBLIC_URL)}`,
    );
  }
  if (text.SMTP_HOST === undefined) {
    problem(
      'SMTP_HOST',
      'is required with NODE_ENV=production: patients need their confirmations and one-time codes; set SMTP_HOST and SMTP_FROM',
    );
  }
};

/** The S3_* variables as parseS3Settings (platform/storage) reads them. */
export function s3Of(values: Partial<Values>): S3Settings | null {
  return parseS3Settings({
    S3_BUCKET: values.S3_BUCKET ?? undefined,
    S3_ENDPOINT: values.S3_ENDPOINT ?? undefined,
    S3_REGION: values.S3_REGION ?? undefined,
    S3_ACCESS_KEY_ID: values.S3_ACCESS_KEY_ID ?? undefined,
    S3_SECRET_ACCESS_KEY: values.S3_SECRET_ACCESS_KEY ?? undefined,
    S3_FORCE_PATH_STYLE: values.S3_FORCE_PATH_STYLE ?? undefined,
    S3_PREFIX: values.S3_PREFIX ?? undefined,
  });
}

/** The S3 variables are checked together; the first wrong one is named in a line under S3_BUCKET. */
export const s3Complete: Rule = ({ values }, problem) => {
  try {
    s3Of(values);
  } catch (error) {
    problem('S3_BUCKET', error instanceof Error ? error.message : 'S3 settings are not valid');
  }
};

/** In the order their lines appear. */
export const RULES: readonly Rule[] = [
  smtpComplete,
  smsKeyRequired,
  devOutboxAllowed,
  identityComplete,
  risSecretRequired,
  hl7AllowRequired,
  risCheckInTarget,
  pacsUrlForPacs,
  productionRequirements,
  s3Complete,
];
