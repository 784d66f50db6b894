import { UPLOAD_CONTENT_TYPES } from '@contract/api/attachments';
import { PatientDetailsSchema, type ClinicWithDistance, type Exam } from '@contract/api/booking';
import type { CallbackWindow } from '@contract/api/callbacks';
import type { ContactField } from './chat-lines';

/** Reading what the patient typed (docs/rules/chat.md#the-conversation); the rules themselves are the booking's. */

const lower = (text: string): string => text.trim().toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');

/** What the attachments accept by type (the server checks the bytes, the size and for viruses). */
export function acceptedFile(file: File): boolean {
  if ((UPLOAD_CONTENT_TYPES as readonly string[]).includes(file.type) || file.type === 'image/heif') return true;
  return file.type === '' && /\.(pdf|jpe?g|png|heic|heif)$/i.test(file.name);
}

/** 'any' for "any clinic", else the clinics whose name or suburb holds the typed words. */
export function matchClinics(clinics: readonly ClinicWithDistance[], text: string): ClinicWithDistance[] | 'any' {
  const typed = lower(text);
  if (/^(any|anywhere|any clinic|doesn't matter|dont mind|don't mind)$/.test(typed)) return 'any';
  const exact = clinics.filter(({ clinic }) => lower(clinic.name) === typed || lower(clinic.address.suburb) === typed);
  if (exact.length > 0) return exact;
  return clinics.filter(({ clinic }) => `${lower(clinic.name)} ${lower(clinic.address.suburb)}`.includes(typed));
}

/** Times named in words: "mornings", "saturday", "afternoon", "any time". */
export function matchTimes(text: string): CallbackWindow[] {
  const typed = lower(text);
  if (/\bany\b|\banytime\b/.test(typed)) return ['anyTime'];
  const times: CallbackWindow[] = [];
  const saturday = /\bsat(urday)?s?\b/.test(typed);
  // "saturday morning" is one window; a "morning" left after it is a weekday's.
  const rest = typed.replace(/\bsat(urday)?s? mornings?\b/g, ' ');
  if (/\bmornings?\b|\bam\b/.test(rest)) times.push('weekdayMorning');
  if (/\bafternoons?\b|\bpm\b/.test(rest)) times.push('weekdayAfternoon');
  if (saturday) times.push('saturdayMorning');
  return times;
}

/**
 * The typed value as the booking's schema expects it: a date as 14/03/1991 or 1991-03-14 becomes
 * 1991-03-14; spaces go from phone, postcode and Medicare numbers; a title in any case is matched.
 */
export function normaliseContact(field: ContactField, text: string): string {
  const value = text.trim();
  switch (field) {
    case 'dateOfBirth': {
      const dayFirst = /^(\d{1,2})[/.\s-](\d{1,2})[/.\s-](\d{4})$/.exec(value);
      if (dayFirst) return `${dayFirst[3]}-${dayFirst[2]?.padStart(2, '0')}-${dayFirst[1]?.padStart(2, '0')}`;
      return value;
    }
    case 'contactNumber':
    case 'postalCode':
    case 'medicareNumber':
      return value.replace(/[\s-]/g, '');
    case 'title': {
      const typed = value.replace(/\.$/, '').toLowerCase();
      return typed === '' ? '' : typed[0]?.toUpperCase() + typed.slice(1);
    }
    default:
      return value;
  }
}

/** The booking's own field rules (PatientDetailsSchema), with "not in the future" for the date of birth. */
export function contactProblem(field: ContactField, value: string, today: string): ContactField | 'dateOfBirthFuture' | null {
  if (value === '' || !PatientDetailsSchema.shape[field].safeParse(value).success) return field;
  if (field === 'dateOfBirth' && value > today) return 'dateOfBirthFuture';
  return null;
}

/** "2", or an offered exam's name typed in full, picks it. */
export function pickOffered(offered: readonly Exam[], text: string): Exam | null {
  const number = Number(text);
  if (Number.isInteger(number) && number >= 1 && number <= offered.length) return offered[number - 1] ?? null;
  return offered.find((exam) => exam.name.toLowerCase() === text.toLowerCase()) ?? null;
}
