import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../../../src-web/api/client';
import { createNotificationsApi } from '../../../../src-web/features/preview-email/notifications-api';
import { SessionStore, type PortalNavigator } from '../../../../src-web/stores/session-store';
import { json, startApiServer } from '../../helpers/api-server';

const QUERY = { template: 'booking_confirmation', lang: 'mk', referenceId: 'pVC8vuYWYJuWi6jKwcf5Cg' } as const;

describe('notifications api: e-mail preview', () => {
  it('should send template, lang and referenceId as the query and answer the rendered mail', async () => {
    const preview = { subject: 'Your appointment is confirmed', html: '<p>Hi</p>', text: 'Hi' };
    const server = await startApiServer({
      'GET /api/notifications/preview_translated_email': (_request, response) => json(response, 200, preview),
    });
    const api = createNotificationsApi(createApiClient(server.url));
    expect(await api.previewEmail(QUERY)).toEqual(preview);
    expect(server.requests.at(-1)?.url).toBe(
      '/api/notifications/preview_translated_email?template=booking_confirmation&lang=mk&referenceId=pVC8vuYWYJuWi6jKwcf5Cg',
    );
  });

  it("should leave a patient's session alone when the staff call answers 401 (no staff sign-in is not a lost patient session)", async () => {
    const server = await startApiServer({
      'GET /api/notifications/preview_translated_email': (_request, response) =>
        json(response, 401, { code: 'unauthorized', message: 'Please sign in with your organisation account.' }),
    });
    const client = createApiClient(server.url);
    const visited: string[] = [];
    const navigator: PortalNavigator = { navigate: (to) => visited.push(to), currentUrl: () => '/preview-email' };
    const session = new SessionStore(() => navigator);
    client.setSessionHandlers({ logout: () => session.logout(), reauthenticate: () => session.reauthenticate() });
    session.markAuthenticated();

    const error = await createNotificationsApi(client)
      .previewEmail(QUERY)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(session.isAuthenticated).toBe(true);
    expect(visited).toEqual([]);
  });
});
