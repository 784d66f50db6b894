/**
 * The kiosk's stored credential in memory, as the heartbeat and the API requests' header use it:
 * its token (state.token, which a test may clear) until the portal says the kiosk was revoked,
 * and how often that was said (state.revokedCalls).
 */
export function fakeCredential(token: string | null) {
  const state = { token, revokedCalls: 0 };
  const credential = {
    token: () => state.token,
    revoked: () => {
      state.revokedCalls += 1;
      state.token = null;
    },
  };
  return { state, credential };
}
