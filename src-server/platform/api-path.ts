/**
 * How the server reads a request's path, in one place (docs/rules/security.md#csrf). The router
 * decodes percent-escapes, so a check on the raw URL alone can be walked around (`/%61pi/...` is
 * routed as `/api/...`). Everything that asks "is this the API?" (the refusal of disguised paths,
 * no-store, the API 404 versus the web app) and which page a URL is (framing) asks here, on the
 * loosest reading anything on the way might make of the path.
 */

/** The path of a request target, still encoded: without scheme and host (absolute form), query and fragment. */
export function rawPath(url: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  const rest = authority === null ? url : url.slice(authority[0].length);
  const end = rest.search(/[?#]/);
  const path = end === -1 ? rest : rest.slice(0, end);
  return path.startsWith('/') ? path : `/${path}`;
}

/** One round of percent-decoding; an escape run that is not valid UTF-8 keeps its non-ASCII bytes encoded. */
function decodeOnce(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%[0-7][0-9a-f]/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
    }
  });
}

/** Decoded until nothing changes (a few rounds), so a double-encoded `%2561` reads as `a` too. */
function decodeFully(text: string): string {
  let current = text;
  for (let round = 0; round < 5; round += 1) {
    const next = decodeOnce(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * The path's segments read loosely: decoded repeatedly (an encoded slash splits), lower case
 * (the web app's router ignores case), backslashes as slashes, empty and `.` segments dropped,
 * `;` parameters and anything after a decoded `?` or `#` cut.
 */
export function pathSegments(url: string): string[] {
  return decodeFully(rawPath(url))
    .toLowerCase()
    .replace(/\\/g, '/')
    .split('/')
    .map((segment) => segment.split(/[;?#]/)[0] ?? '')
    .filter((segment) => segment !== '' && segment !== '.');
}

/** Whether a request URL addresses the JSON API (`/api`, `/api/...`, `/api?...`), however it is written. */
export function isApiPath(url: string): boolean {
  return pathSegments(url)[0] === 'api';
}

/**
 * Whether a URL reaches the API only through a looser reading: an escape, another case, an extra
 * slash. Such a request is refused outright, before any route runs (csrf-guard.ts).
 */
export function isDisguisedApiPath(url: string): boolean {
  return isApiPath(url) && !/^\/api(?:\/|$)/.test(rawPath(url));
}
