/** Whether a request URL addresses the JSON API (`/api`, `/api/...`, `/api?...`) rather than the web app. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}
