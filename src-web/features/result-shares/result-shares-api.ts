import { ShareListSchema, ShareRecordSchema, type ShareList, type ShareRecord, type ShareRequest } from '@contract/api/result-shares';
import { CONTROL_CHARACTER_MESSAGE } from '@contract/api/text';
import { ApiError, type ApiClient } from '../../api/client';
import { getParsed, postParsed } from '../../api/parsed-request';

/**
 * Typed calls of the patient's result sharing (src-contract/api/result-shares.ts,
 * src-server/modules/result-shares/routes.ts): list, share, revoke. A 401 here is the patient's
 * results session ending, so the client's 401 rule (logout, then sign in again) applies as usual.
 */
export function createResultSharesApi(client: ApiClient) {
  const { http } = client;
  const sharesPath = (bookingKey: string) => `/api/results/${encodeURIComponent(bookingKey)}/shares`;

  return {
    /** The shares of the booking, with who opened them when, and what the form must check (SMS on, note length). */
    list: async (bookingKey: string): Promise<ShareList> => {
      const path = sharesPath(bookingKey);
      return getParsed(http, path, ShareListSchema);
    },
    /** Shares the result (or history) with a contact; 201 with the new share. */
    create: async (bookingKey: string, request: ShareRequest): Promise<ShareRecord> => {
      const path = sharesPath(bookingKey);
      return postParsed(http, path, ShareRecordSchema, request);
    },
    /** Revokes a share at once; the answer is the share with its revocation date. */
    revoke: async (bookingKey: string, id: string): Promise<ShareRecord> => {
      const path = `${sharesPath(bookingKey)}/${encodeURIComponent(id)}/revoke`;
      return postParsed(http, path, ShareRecordSchema);
    },
  };
}

export type ResultSharesApi = ReturnType<typeof createResultSharesApi>;

/** The share form's fields that can carry a problem. */
export type ShareField = 'contactDetails' | 'contactName' | 'note';

/**
 * What is wrong with a field: empty, not an e-mail (SMS off), neither an e-mail nor a phone
 * (SMS on: invalid_contact_details), or longer than allowed.
 */
export type ShareFieldProblem = 'required' | 'email' | 'invalidContact' | 'tooLong' | 'controlCharacters';

/**
 * How a share, revoke or list call failed, as the dialog words it: problems next to fields
 * (400 invalid_contact_details, 400 validation_failed naming a field), the 401 the client has
 * already answered by sending the patient to sign in, a refusal (403: the history shared from a
 * session other than the patient portal's), nothing released to share (404), too many shares (429), or anything else.
 */
export type ShareFailure =
  | { kind: 'fields'; fields: Partial<Record<ShareField, ShareFieldProblem>> }
  | { kind: 'signedOut' }
  | { kind: 'forbidden' }
  | { kind: 'notAvailable' }
  | { kind: 'tooMany' }
  | { kind: 'general' };

/** The body field a validation detail names (`{ in: 'body/note', message }`), or null. */
function detailField(detail: unknown): string | null {
  if (typeof detail !== 'object' || detail === null || !('in' in detail) || typeof detail.in !== 'string') return null;
  const match = /^body\/(\w+)/.exec(detail.in);
  return match?.[1] ?? null;
}

function detailMessage(detail: unknown): string | null {
  return typeof detail === 'object' && detail !== null && 'message' in detail && typeof detail.message === 'string' ? detail.message : null;
}

/** The problems a 400's details name, by field; fields the form does not show are left out. */
function fieldProblems(details: unknown): Partial<Record<ShareField, ShareFieldProblem>> {
  const fields: Partial<Record<ShareField, ShareFieldProblem>> = {};
  if (!Array.isArray(details)) return fields;
  for (const detail of details) {
    const field = detailField(detail);
    // Control characters are named as such (the server's message for them), not as a length problem.
    if (
      detailMessage(detail) === CONTROL_CHARACTER_MESSAGE &&
      (field === 'contactDetails' || field === 'contactName' || field === 'note')
    ) {
      fields[field] ??= 'controlCharacters';
      continue;
    }
    // The type the form worked out disagrees with the server's reading of the contact: the contact is at fault.
    if (field === 'contactDetails' || field === 'contactDetailsType') fields.contactDetails ??= 'invalidContact';
    else if (field === 'contactName') fields.contactName ??= 'tooLong';
    else if (field === 'note') fields.note ??= 'tooLong';
  }
  return fields;
}

/** Maps an error from a share call onto what the dialog shows. */
export function toShareFailure(error: unknown): ShareFailure {
  if (!(error instanceof ApiError) || error.kind !== 'http') return { kind: 'general' };
  const code: string = error.code;
  if (error.status === 401) return { kind: 'signedOut' };
  if (error.status === 400) {
    if (code === 'invalid_contact_details') return { kind: 'fields', fields: { contactDetails: 'invalidContact' } };
    const fields = fieldProblems(error.details);
    return Object.keys(fields).length > 0 ? { kind: 'fields', fields } : { kind: 'general' };
  }
  if (error.status === 403 && code !== 'captcha_required') return { kind: 'forbidden' };
  if (error.status === 404) return { kind: 'notAvailable' };
  if (error.status === 429) return { kind: 'tooMany' };
  return { kind: 'general' };
}
