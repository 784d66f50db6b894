import { escapeHtml as e } from '../platform/index-html';

/**
 * The HTML pages of the local identity provider: sign-in, sign-out, signed-out and error. Plain
 * forms, no script at all, one external stylesheet; every value printed goes through escapeHtml.
 */

export const STYLESHEET_PATH = '/dev-identity/style.css';

export const STYLESHEET = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f6f8;color:#1b1f24}
main{max-width:24rem;margin:3rem auto;padding:1.5rem 2rem;background:#fff;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.2)}
h1{font-size:1.4rem;margin-top:0}
label{display:block;margin-top:1rem;font-weight:600}
input{display:block;width:100%;box-sizing:border-box;margin-top:.25rem;padding:.5rem;font-size:1rem;border:1px solid #5c6670;border-radius:4px}
button{margin-top:1.25rem;padding:.6rem 1rem;font-size:1rem;border:0;border-radius:4px;background:#0b5cad;color:#fff;cursor:pointer}
button.secondary{background:#5c6670;margin-left:.5rem}
button:focus-visible,input:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.error{margin-top:1rem;padding:.6rem;border-left:4px solid #b00020;background:#fdecee;color:#7a0016}
.note{font-size:.9rem;color:#4a535c}
dl{font-size:.9rem}dt{font-weight:600}dd{margin:0 0 .5rem 0;word-break:break-word}
`;

/**
 * Sent with every page: nothing but the stylesheet loads, the pages cannot be framed, and forms
 * post only to the provider itself or (after its redirects) to the portal.
 */
export function pageSecurityHeaders(portalOrigin: string): Record<string, string> {
  return {
    'content-security-policy': `default-src 'none'; style-src 'self'; form-action 'self' ${portalOrigin}; frame-ancestors 'none'; base-uri 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

function layout(title: string, body: string, base: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<link rel="stylesheet" href="${e(base)}${STYLESHEET_PATH}">
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export interface LoginPageInput {
  /** The path the provider is mounted under ('' on a server of its own, '/dev/idp' inside the portal). */
  base: string;
  /** Where the form posts: the interaction's login path. */
  action: string;
  /** The application the person signs in to (the client's name). */
  clientName: string;
  /** The username typed last time, kept after a wrong password. */
  username?: string;
  /** Shown above the form and tied to both fields for screen readers. */
  error?: string;
}

export function loginPage(input: LoginPageInput): string {
  const errorId = 'sign-in-error';
  const described = input.error === undefined ? '' : ` aria-describedby="${errorId}" aria-invalid="true"`;
  const error = input.error === undefined ? '' : `<p id="${errorId}" class="error" role="alert">${e(input.error)}</p>\n`;
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to ${e(input.clientName)}</p>
${error}<form method="post" action="${e(input.action)}" autocomplete="off">
<label for="username">Username</label>
<input id="username" name="username" type="text" required autocomplete="username" autocapitalize="none" spellcheck="false" value="${e(input.username ?? '')}"${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password"${described}>
<button type="submit">Sign in</button>
</form>
<p class="note">Local demo identity provider: fictional accounts only.</p>`,
    input.base,
  );
}

/**
 * The sign-out question of the end-session endpoint. `form` is the provider's own form (hidden
 * fields only, its CSRF value included); the buttons submit it through their form attribute.
 */
export function logoutPage(form: string, host: string, base: string): string {
  return layout(
    'Sign out',
    `<h1>Sign out of ${e(host)}?</h1>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>
<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>`,
    base,
  );
}

export function loggedOutPage(clientName: string | undefined, base: string): string {
  const from = clientName === undefined ? '' : ` of ${e(clientName)}`;
  return layout('Signed out', `<h1>Signed out</h1>\n<p>You are signed out${from}.</p>`, base);
}

export function errorPage(details: Record<string, string>, base: string): string {
  const rows = Object.entries(details)
    .map(([key, value]) => `<dt>${e(key)}</dt><dd>${e(value)}</dd>`)
    .join('\n');
  return layout('Sign-in problem', `<h1>Sign-in problem</h1>\n<dl>\n${rows}\n</dl>`, base);
}
