import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { checkPassword, type DemoIdentityAccount } from './accounts';
import { PORTAL_CLIENT_ID } from './portal-client';
import { errorPage, loginPage, pageSecurityHeaders, STYLESHEET, STYLESHEET_PATH } from './pages';

/**
 * The interaction pages oidc-provider sends a person to (configuration.ts `interactions.url`):
 *   GET  /interaction/:uid        the sign-in form, or the consent step
 *   POST /interaction/:uid/login  checks the username and password
 * Consent is granted without asking for the portal client: it is the provider's own application
 * (first party). The interaction cookie oidc-provider sets is bound to the /interaction/:uid path,
 * and the uid in the path must be the cookie's interaction, so a form cannot be replayed against
 * another person's sign-in.
 */

const INTERACTION_PATH = /^\/interaction\/([A-Za-z0-9_-]{1,64})(\/login)?$/;
const MAX_FORM_BYTES = 8 * 1024;
export const WRONG_CREDENTIALS = 'The username or password is not right. Try again.';

export interface InteractionDeps {
  provider: () => Provider;
  accounts: readonly DemoIdentityAccount[];
  portalOrigin: string;
  clientName: string;
  /** The path the provider is mounted under ('' on a server of its own, '/dev/idp' inside the portal). */
  base: string;
}

class BadRequest extends Error {}

function send(response: ServerResponse, status: number, html: string, portalOrigin: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    ...pageSecurityHeaders(portalOrigin),
  });
  response.end(html);
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const type = request.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new BadRequest('The sign-in form must be sent as a form.');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new BadRequest('The sign-in form is too large.');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Grants what the portal asked for (scopes, claims, the portal API's scopes) and finishes. */
async function grantConsent(
  deps: InteractionDeps,
  interaction: Interaction,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const provider = deps.provider();
  const accountId = interaction.session?.accountId;
  const clientId = interaction.params.client_id;
  if (accountId === undefined || clientId !== PORTAL_CLIENT_ID) {
    await provider.interactionFinished(
      request,
      response,
      { error: 'access_denied', error_description: 'Only the portal application may be granted access.' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const grant =
    (interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId)) ??
    new provider.Grant({ accountId, clientId });
  const details = interaction.prompt.details;
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

async function handleLogin(
  deps: InteractionDeps,
  interaction: Interaction,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (interaction.prompt.name !== 'login') throw new BadRequest('This sign-in step is already complete.');
  const form = await readForm(request);
  const username = form.get('username') ?? '';
  const account = checkPassword(deps.accounts, username, form.get('password') ?? '');
  if (account === null) {
    const action = `${deps.base}/interaction/${interaction.uid}/login`;
    const page = loginPage({ base: deps.base, action, clientName: deps.clientName, username, error: WRONG_CREDENTIALS });
    send(response, 401, page, deps.portalOrigin);
    return;
  }
  await deps.provider().interactionFinished(request, response, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
}

async function handleStep(
  deps: InteractionDeps,
  interaction: Interaction,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (interaction.prompt.name === 'login') {
    const page = loginPage({ base: deps.base, action: `${deps.base}/interaction/${interaction.uid}/login`, clientName: deps.clientName });
    send(response, 200, page, deps.portalOrigin);
    return;
  }
  if (interaction.prompt.name === 'consent') {
    await grantConsent(deps, interaction, request, response);
    return;
  }
  throw new BadRequest(`Unknown sign-in step ${interaction.prompt.name}.`);
}

/**
 * Answers the stylesheet and the interaction paths; returns false for any other path so the
 * caller hands the request to oidc-provider.
 */
export async function handleInteraction(
  deps: InteractionDeps,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
): Promise<boolean> {
  if (pathname === STYLESHEET_PATH && request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' });
    response.end(STYLESHEET);
    return true;
  }
  const match = INTERACTION_PATH.exec(pathname);
  if (match === null) return false;
  const [, uid, login] = match;
  const expected = login === undefined ? 'GET' : 'POST';
  if (request.method !== expected) {
    response.writeHead(405, { allow: expected });
    response.end();
    return true;
  }
  try {
    const interaction = await deps.provider().interactionDetails(request, response);
    if (interaction.uid !== uid) throw new BadRequest('This sign-in link belongs to another sign-in.');
    if (login === undefined) await handleStep(deps, interaction, request, response);
    else await handleLogin(deps, interaction, request, response);
  } catch (error) {
    // oidc-provider's SessionNotFound and the like: the sign-in expired or the cookie is missing.
    const message = error instanceof BadRequest ? error.message : 'The sign-in has expired or was not started here.';
    const page = errorPage({ error: message, next: 'Start the sign-in again from the portal.' }, deps.base);
    if (!response.headersSent) send(response, 400, page, deps.portalOrigin);
    else response.end();
  }
  return true;
}
