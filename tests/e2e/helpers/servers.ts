import { createServer, type Server } from 'node:http';

/** The origin the e2e server is told to trust for framing (playwright.config.ts sets EMBED_ORIGINS). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4310);
export const EMBED_PARENT_PORT = Number(process.env.E2E_EMBED_PORT ?? 4311);
export const OTHER_PARENT_PORT = EMBED_PARENT_PORT + 1;
/**
 * The e2e server's signed-link key (SIGNED_LINK_KEYS), so a journey can make a link the server
 * would have made earlier (an expired image link). A test key only: 32 bytes of 0x2a.
 */
export const E2E_SIGNED_LINK_KEYS = `e2e:${Buffer.alloc(32, 42).toString('base64url')}`;
export const portalOrigin = `http://127.0.0.1:${E2E_PORT}`;
/** The PACS portal of the e2e server's 'archive' repository source (IMAGE_REPOSITORY_SOURCES); a journey answers it itself. */
export const E2E_PACS_PORTAL = `http://127.0.0.1:${EMBED_PARENT_PORT + 2}/pacs-portal`;

/**
 * A provider's own web page that embeds the portal in an iframe, served from its own origin.
 * Returns the server so the test can close it.
 */
export async function startParentSite(port: number, host: string, framedPath: string): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Provider site</title></head><body>` +
        `<h1>Provider site</h1><iframe title="Patient portal" width="900" height="700" src="${portalOrigin}${framedPath}"></iframe>` +
        `</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}

export interface ScriptTag {
  /** data-path: the portal page the frame opens. */
  path: string;
  /** data-title: the frame's accessible name. */
  title: string;
}

/**
 * A provider's plain HTML page that embeds the portal the documented way (docs/embedding.md): one
 * script tag per frame, below a tall block of the provider's own content so the frames start far
 * down the page. Returns the server so the test can close it.
 */
export async function startScriptParentSite(port: number, host: string, tags: readonly ScriptTag[]): Promise<Server> {
  const scripts = tags
    .map(
      (tag) =>
        `<h2>${tag.title}</h2><script src="${portalOrigin}/embed.js" data-path="${tag.path}" data-title="${tag.title}" async></script>`,
    )
    .join('<p>Between the frames.</p>');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>Provider site</title></head><body style="margin:0;font-family:serif">` +
        `<header><h1>Provider site</h1></header><main><div style="height:1200px">The provider's own content.</div>` +
        `${scripts}<p>Below the portal.</p></main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}
