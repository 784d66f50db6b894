import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ImageViewerResponseSchema } from '@contract/api/image-viewer';
import { createTestClock } from '../../../../src-server/platform/clock';
import { createSignedLinks, parseSignedLinkKeys } from '../../../../src-server/platform/signed-links';
import { PATIENT_IMAGE_LINK } from '../../../../src-server/modules/results/patient-results';
import { SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { client, LIAM } from '../patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV, STUDY_UID } from './results-kit';

// The image viewer link at the route (docs/rules/results.md#image-viewer) with configured keys: a
// link signed with a retired key opens the images during the grace period and is refused after;
// no changed character of a link ever opens them; a configured PACS viewer and the PACS
// preference are what the browser is sent to.

const K1 = `k1:${Buffer.alloc(32, 1).toString('base64url')}`;
const K2 = `k2:${Buffer.alloc(32, 2).toString('base64url')}`;
const RETIRED_AT = new Date(new Date(SEED_NOW).getTime() + 60 * 60_000);
const HOUR = 60 * 60_000;

describe('image viewer link with configured keys', () => {
  const server = useTestApp({
    env: {
      ...INTEGRATION_ENV,
      SIGNED_LINK_KEYS: `${K2},${K1}@${RETIRED_AT.toISOString()}`,
      IMAGE_VIEWER_URL_TEMPLATE: 'https://pacs.example.com/ohif/viewer?StudyInstanceUIDs={studyInstanceUid}&acc={accessionNumber}',
      IMAGE_VIEWER_PREFERENCE: 'PACS',
      PACS_URL: 'https://pacs.example.com/portal',
    },
  });
  let reportId: string;
  /** A link as a server still signing with k1 made it, before k1 was retired. */
  let oldLink: string;
  let liveLink: string;

  beforeAll(async () => {
    reportId = await deliverReport(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-IV-1',
      releaseAt: new Date(new Date(SEED_NOW).getTime() - 86_400_000).toISOString(),
    });
    const oldServer = createSignedLinks({ keys: parseSignedLinkKeys(K1), clock: createTestClock(SEED_NOW) });
    oldLink = oldServer.sign({ ...PATIENT_IMAGE_LINK, subject: reportId, ttlMs: 7 * 24 * HOUR });
    const current = createSignedLinks({ keys: parseSignedLinkKeys(K2), clock: server.clock });
    liveLink = current.sign({ ...PATIENT_IMAGE_LINK, subject: reportId, ttlMs: 7 * 24 * HOUR });
  });

  const open = (input: string) => client(server.app).request('GET', `/api/image_viewer?input=${encodeURIComponent(input)}`);

  it("lets the portal's pages frame the configured viewer (the referrer's quick report embeds it)", async () => {
    const page = await server.app.inject({ method: 'GET', url: '/referrer/quick-report' });
    const frameSrc = /frame-src ([^;]+)/.exec(page.headers['content-security-policy']?.toString() ?? '')?.[1] ?? '';
    expect(frameSrc.split(' ')).toContain('https://pacs.example.com');
  });

  it('sends the browser to the configured PACS viewer with the study filled in, and names the PACS portal', async () => {
    const answer = ImageViewerResponseSchema.parse((await open(liveLink)).json());
    expect(answer).toEqual({
      url: `https://pacs.example.com/ohif/viewer?StudyInstanceUIDs=${STUDY_UID}&acc=ACC-IV-1`,
      imageViewerLinkStatus: 'ACTIVE',
      redirectUrl: null,
      preference: 'PACS',
      pacsUrl: 'https://pacs.example.com/portal',
      images: 'AVAILABLE',
    });
  });

  it('accepts a link of the retired key during its grace period and refuses it after', async () => {
    const start = server.clock.now();
    try {
      server.clock.set(new Date(RETIRED_AT.getTime() + 23 * HOUR));
      expect((await open(oldLink)).statusCode).toBe(200);
      server.clock.set(new Date(RETIRED_AT.getTime() + 25 * HOUR));
      const refused = await open(oldLink);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'user_not_have_access_to_images' });
      // The current key's link, made at the same time, still opens.
      expect((await open(liveLink)).statusCode).toBe(200);
    } finally {
      server.clock.set(start);
    }
  });

  it('never opens the images for a link with any one character changed', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: liveLink.length - 1 }), fc.nat({ max: alphabet.length - 1 }), async (position, pick) => {
        const replacement = alphabet[pick] === liveLink[position] ? alphabet[(pick + 1) % alphabet.length] : alphabet[pick];
        const changed = `${liveLink.slice(0, position)}${replacement ?? ''}${liveLink.slice(position + 1)}`;
        const response = await open(changed);
        expect(response.statusCode, `changed at ${position}`).toBe(403);
      }),
      { numRuns: 150 },
    );
  });
});
