import { PATIENT_DETAIL_FIELDS } from '@contract/api/booking';
import type { CallbackWindow } from '@contract/api/callbacks';
import type { QueuedFile } from './chat-upload-queue';

/**
 * What the conversation holds (docs/rules/chat.md#the-conversation): the patient's words as
 * typed, the assistant's as a text key with values (translated where shown, so the store stays
 * free of i18next), a file's progress, and the server's words where it refused something.
 */

/** The patient details asked one at a time, in the contract's order. */
export const CONTACT_FIELDS = PATIENT_DETAIL_FIELDS;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export type Say =
  | { key: 'greeting' }
  | { key: 'askExam' }
  | { key: 'searchEmpty' }
  | { key: 'noMatch' }
  | { key: 'catalogueFailed' }
  | { key: 'matches' }
  | { key: 'askClinic'; exam: string }
  | { key: 'clinicsFailed' }
  | { key: 'clinicUnknown' }
  | { key: 'clinicSeveral' }
  | { key: 'askTimes' }
  | { key: 'timesNone' }
  | { key: 'askReferral' }
  | { key: 'fileType'; fileName: string }
  | { key: 'uploadsDone'; count: number }
  | { key: 'askField'; field: ContactField }
  | { key: 'problem'; field: ContactField | 'dateOfBirthFuture' }
  | { key: 'summary' }
  | { key: 'whatToChange' }
  | { key: 'sending' }
  | { key: 'sent'; exam: string }
  | { key: 'tooMany' }
  | { key: 'failed' }
  /** The server's own words (a refused request or file). */
  | { key: 'server'; text: string };

export type ChatLine =
  | { id: number; from: 'patient'; text: string }
  | { id: number; from: 'assistant'; say: Say }
  | { id: number; from: 'file'; file: QueuedFile };

/** Quick replies: each is a button; typing is always allowed too. */
export type Choice =
  | { kind: 'exam'; slug: string; name: string }
  | { kind: 'somethingElse' }
  | { kind: 'clinic'; slug: string; name: string; suburb: string }
  | { kind: 'anyClinic' }
  | { kind: 'time'; time: CallbackWindow; pressed: boolean }
  | { kind: 'timesDone' }
  | { kind: 'upload' }
  | { kind: 'bringIt' }
  | { kind: 'noReferral' }
  | { kind: 'referralDone' }
  | { kind: 'title'; title: string }
  | { kind: 'send' }
  | { kind: 'change' }
  | { kind: 'changeStep'; step: ChangeableStep }
  | { kind: 'retry' };

export type ChangeableStep = 'exam' | 'clinic' | 'times' | 'referral' | 'contact';
export const CHANGEABLE_STEPS: readonly ChangeableStep[] = ['exam', 'clinic', 'times', 'referral', 'contact'];

export type ReferralAnswer = 'uploaded' | 'bringIt' | 'none';
