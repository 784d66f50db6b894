import type {
  AuthenticateRequest,
  AuthenticateResponse,
  OtpChannel,
  SendOtpResponse,
  SessionResponse,
  SignInType,
} from '@contract/api/patient-access';
import type { SharedSignInRequest } from '@contract/api/result-shares';
import type { ApiClient } from './client';

/**
 * Typed calls of /api/patient-access/* (src-contract/api/patient-access.ts).
 *
 * Only types come from the contract: the answers are serialised by the server through the same
 * schemas, and importing the schemas would put zod into the sign-in chunk. Errors arrive as
 * typed ApiErrors (client.ts).
 */
export function createPatientAccessApi(client: ApiClient) {
  const { http } = client;
  return {
    /**
     * The authenticated check (docs/rules/patient-access.md#authenticated-check): 200 when this browser holds a fully
     * authenticated session for the booking, 401 otherwise.
     *
     * @param options.authCheck - true (the default) applies the re-authentication rule to a 401;
     *   false asks quietly (the sign-in page checking whether it is needed at all).
     */
    session: async (query: { bookingKey: string; type: SignInType }, options: { authCheck?: boolean } = {}): Promise<SessionResponse> => {
      const authCheck = options.authCheck ?? true;
      return (
        await http.get<SessionResponse>('/api/patient-access/session', { params: query, ...(authCheck ? { authCheck } : { signIn: true }) })
      ).data;
    },

    /** Date of birth (and optional contact number); a 401 here is a wrong answer, not a lost session. */
    authenticate: async (body: AuthenticateRequest): Promise<AuthenticateResponse> =>
      (await http.post<AuthenticateResponse>('/api/patient-access/authenticate', body, { signIn: true })).data,

    /**
     * A contact's sign-in with a share link: the link's token and the patient's date of birth
     * (docs/rules/results.md#sharing). Always asks for the code, which goes to the contact.
     * 410 share_revoked / share_expired once the share no longer stands.
     */
    authenticateShared: async (body: SharedSignInRequest): Promise<AuthenticateResponse> =>
      (await http.post<AuthenticateResponse>('/api/patient-access/shared', body, { signIn: true })).data,

    /** Sends a one-time password on the channel (needs the session the date of birth opened). */
    sendOtp: async (channel: OtpChannel): Promise<SendOtpResponse> =>
      (await http.post<SendOtpResponse>('/api/patient-access/otp', { channel }, { signIn: true })).data,

    verifyOtp: async (code: string): Promise<SessionResponse> =>
      (await http.post<SessionResponse>('/api/patient-access/otp/verify', { code }, { signIn: true })).data,

    logout: async (): Promise<void> => {
      await http.post('/api/patient-access/logout', undefined, { signIn: true });
    },
  };
}

export type PatientAccessApi = ReturnType<typeof createPatientAccessApi>;
