import type { AppointmentCreateRequest, WalkInExam } from '@contract/api/booking';
import { validationError } from '../../platform/errors';
import type { BookingRepository } from './repository';

/** The message for a walk-in exam the provider does not offer. */
export const UNKNOWN_WALK_IN_EXAM = 'That walk-in exam is not offered. Please choose one of the listed walk-in exams.';

/**
 * A booking records only a walk-in exam the provider lists, with the provider's own preparation
 * and arrival minutes: the caller's name picks it, its numbers are never trusted (they reach the
 * confirmation mail). docs/rules/booking.md#walk-ins
 */
export async function knownWalkInExam(repository: BookingRepository, asked: WalkInExam): Promise<WalkInExam> {
  const listed = (await repository.walkInExams(null)).find((row) => row.name === asked.name);
  if (listed === undefined) throw validationError('walkInExam/name', UNKNOWN_WALK_IN_EXAM);
  return { name: listed.name, prepTime: listed.prep_time, minutesPrior: listed.minutes_prior };
}

/** The request with its walk-in exam (if any) replaced by the listed one. */
export async function withKnownWalkInExam(
  repository: BookingRepository,
  request: AppointmentCreateRequest,
): Promise<AppointmentCreateRequest> {
  if (request.walkInExam === undefined) return request;
  return { ...request, walkInExam: await knownWalkInExam(repository, request.walkInExam) };
}
