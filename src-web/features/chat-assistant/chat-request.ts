import type { BookingRequestCreate, Exam, PATIENT_TITLES } from '@contract/api/booking';
import type { CallbackWindow } from '@contract/api/callbacks';
import type { ContactField } from './chat-lines';

/** What the conversation gathered, as POST /api/booking/booking-requests takes it (channel 'chat', docs/rules/chat.md#the-server). */
export function chatRequestBody(
  answers: {
    exam: Exam | null;
    clinic: { slug: string } | null;
    times: readonly CallbackWindow[];
    contact: Partial<Record<ContactField, string>>;
  },
  /** The temporary key the referral went under; null when none was uploaded. */
  referralKey: string | null,
): BookingRequestCreate {
  const { title, firstName, lastName, dateOfBirth, email, contactNumber, postalCode, medicareNumber } = answers.contact;
  return {
    channel: 'chat',
    preferredTimes: [...answers.times],
    exams: [answers.exam?.slug ?? ''],
    ...(answers.clinic === null ? {} : { clinicSlug: answers.clinic.slug }),
    patient: {
      title: title as (typeof PATIENT_TITLES)[number],
      firstName: firstName ?? '',
      lastName: lastName ?? '',
      dateOfBirth: dateOfBirth ?? '',
      email: email ?? '',
      contactNumber: contactNumber ?? '',
      postalCode: postalCode ?? '',
      ...(medicareNumber === undefined ? {} : { medicareNumber }),
    },
    ...(referralKey === null ? {} : { questionnaireKey: referralKey }),
  };
}
