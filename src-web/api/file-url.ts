import type { AxiosInstance } from 'axios';

/**
 * A file link the server gave (an attachment's downloadUrl or viewUrl) on the client's base URL:
 * a plain link, so the session cookie goes with it and the server answers with the file's
 * Content-Disposition.
 */
export function fileUrl(http: AxiosInstance, serverPath: string): string {
  return `${(http.defaults.baseURL ?? '/').replace(/\/+$/, '')}${serverPath}`;
}
