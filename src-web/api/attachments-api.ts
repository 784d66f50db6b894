import {
  AttachmentSchema,
  AttachmentsResponseSchema,
  attachmentsBasePath,
  type Attachment,
  type AttachmentBase,
  type AttachmentsResponse,
} from '@contract/api/attachments';
import type { ApiClient } from './client';
import { fileUrl } from './file-url';
import { getParsed, postParsed } from './parsed-request';
import { parseResponse } from './parse-response';

/** Which booking's documents: the appointment, the booking request, or the temporary key while booking. */
export interface AttachmentOwner {
  base: AttachmentBase;
  bookingKey: string;
}

export interface UploadFields {
  documentTypeId?: string;
  referralDate?: string;
  referringDoctor?: string;
}

/** Typed calls of the attachment bases (src-contract/api/attachments.ts, docs/rules/attachments.md#calls). */
export function createAttachmentsApi(client: ApiClient) {
  const { http } = client;
  const base = (owner: AttachmentOwner) => attachmentsBasePath(owner.base, owner.bookingKey);

  /** Text fields go before the file: the server reads them first (docs/rules/attachments.md#limits). */
  function form(file: File, fields: UploadFields): FormData {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) if (value) body.append(name, value);
    body.append('file', file, file.name);
    return body;
  }

  return {
    /** examSlugs: the exams the booking flow has chosen (the temporary base), so their documents are asked for. */
    response: async (owner: AttachmentOwner, examSlugs?: readonly string[]): Promise<AttachmentsResponse> => {
      const path = `${base(owner)}/response`;
      const params = examSlugs && examSlugs.length > 0 ? { changedExamSlugs: examSlugs.join(',') } : undefined;
      return getParsed(http, path, AttachmentsResponseSchema, { params });
    },

    /** POST (new) or PUT (replace) one file; onProgress gets 0..100 while the bytes go up. */
    upload: async (
      owner: AttachmentOwner,
      file: File,
      fields: UploadFields,
      onProgress: (percent: number) => void,
      replaceId?: string,
    ): Promise<Attachment> => {
      const path = replaceId === undefined ? base(owner) : `${base(owner)}/${encodeURIComponent(replaceId)}`;
      const response = await http.request({
        method: replaceId === undefined ? 'POST' : 'PUT',
        url: path,
        data: form(file, fields),
        onUploadProgress: (event) => {
          if (event.total) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
        },
      });
      return parseResponse(path, AttachmentSchema, response.data);
    },

    /** Staff accept a referral the date check warned about (docs/rules/attachments.md#referral-date). */
    acceptReferralDate: async (owner: AttachmentOwner, id: string): Promise<Attachment> => {
      const path = `${base(owner)}/${encodeURIComponent(id)}/accept-referral-date`;
      return postParsed(http, path, AttachmentSchema, undefined, { staffSession: true });
    },

    /** Staff only: the server answers 403 to anyone else. */
    remove: async (owner: AttachmentOwner, id: string): Promise<void> => {
      await http.delete(`${base(owner)}/${encodeURIComponent(id)}`, { staffSession: true });
    },

    fileUrl: (serverPath: string): string => fileUrl(http, serverPath),
  };
}

export type AttachmentsApi = ReturnType<typeof createAttachmentsApi>;
