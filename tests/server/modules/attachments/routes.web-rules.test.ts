import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { signIn } from '../appointments/self-service-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import {
  appointmentBase,
  attachmentRows,
  clearAttachments,
  jpeg,
  LIAM,
  MINIMAL_PDF,
  multipart,
  send,
  strayFiles,
  type Caller,
} from './attachments-kit';

// The upload rules the web checks before it sends a file (the accepted types and the referring
// doctor's length in attachments-section.tsx), called directly (docs/rules/server-enforced.md#attachments).

describe.each(backends())('upload rules the web checks, enforced by the server on %s', (backend) => {
  const server = useTestApp({ backend });
  let liam: Caller;

  const upload = (fields: Record<string, string>, name: string, bytes: Uint8Array, type: string) =>
    send(server.app, liam, 'POST', appointmentBase(LIAM.bookingKey), multipart(fields, { name, type, bytes }));

  beforeAll(async () => {
    server.clock.set(SEED_NOW);
    await setOtpRequired(server.db, false);
    liam = { patientToken: (await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth)).browser.token ?? '' };
  });
  beforeEach(async () => {
    await clearAttachments(server.db, server.dataDir, LIAM.bookingKey);
    await server.db.query(`update attachment_settings set allowed_content_types = '{application/pdf,image/jpeg,image/png}'`);
  });

  it('refuses a well-formed photo when the provider accepts PDFs only (415, naming the allowed types), storing nothing', async () => {
    await server.db.query(`update attachment_settings set allowed_content_types = '{application/pdf}'`);
    const refused = await upload({}, 'referral.jpg', await jpeg(), 'image/jpeg');
    expect(refused.statusCode, refused.body).toBe(415);
    expect(refused.json()).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining('PDF') as unknown });
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toEqual([]);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
    expect((await upload({}, 'referral.pdf', MINIMAL_PDF, 'application/pdf')).statusCode).toBe(201);
  });

  it("refuses a referring doctor's name over 120 characters (400), storing nothing", async () => {
    const refused = await upload({ referringDoctor: 'D'.repeat(121) }, 'referral.pdf', MINIMAL_PDF, 'application/pdf');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'validation_failed' });
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toEqual([]);
  });
});
