/*
 * The patient portal's embed script for providers' websites (docs/embedding.md). Plain ES2017, no
 * dependencies. Each <script src="https://portal.example/embed.js" data-path="/select-region" async>
 * tag becomes a frame of the portal right after it, as tall as the portal's content:
 * - the portal posts { type: 'radiology-portal:height', height }; a message is only taken from the
 *   portal's origin and from that tag's own frame, so another frame or page cannot resize it;
 * - the script posts the part of the frame the visitor can see ({ type: 'radiology-portal:viewport',
 *   top, height }), so the portal opens its dialogs there and not at the top of a tall frame.
 * Attributes: data-path (a portal page, default /select-region), data-title (the frame's accessible
 * name), data-min-height (pixels, default 480), data-link (a page to open, as ?link= does).
 */
(function () {
  'use strict';

  var HEIGHT = 'radiology-portal:height';
  var VIEWPORT = 'radiology-portal:viewport';
  var SCROLL_INTO_VIEW = 'radiology-portal:scroll-into-view';
  var DONE = 'data-radiology-portal-frame';
  var registry = window.__radiologyPortalEmbeds || (window.__radiologyPortalEmbeds = []);

  /** The portal's origin: where this tag's script came from (script.src is always absolute). */
  function portalOrigin(script) {
    var origin = script.src ? new URL(script.src).origin : 'null';
    return origin === 'null' ? null : origin;
  }

  function framePath(script) {
    var path = script.getAttribute('data-path') || '/select-region';
    if (path.charAt(0) !== '/' || path.charAt(1) === '/') path = '/select-region';
    return path.indexOf('/iframe/') === 0 || path === '/iframe' ? path : '/iframe' + path;
  }

  function frameUrl(script, origin) {
    var url = new URL(framePath(script), origin);
    url.searchParams.set('parentOrigin', window.location.origin);
    var link = script.getAttribute('data-link');
    if (link) url.searchParams.set('link', link);
    return url.toString();
  }

  /** The part of the frame inside the visitor's window, in the frame's own coordinates. */
  function visiblePart(frame) {
    var rect = frame.getBoundingClientRect();
    var viewportHeight = window.innerHeight || document.documentElement.clientHeight;
    var top = Math.max(0, -rect.top);
    var bottom = Math.min(rect.height, viewportHeight - rect.top);
    return { top: Math.round(top), height: Math.round(Math.max(0, bottom - top)) };
  }

  function postViewport(embed) {
    var target = embed.frame.contentWindow;
    if (!target) return;
    var part = visiblePart(embed.frame);
    target.postMessage({ type: VIEWPORT, top: part.top, height: part.height }, embed.origin);
  }

  // Scroll and resize fire many times a frame: one viewport message per frame and embed at most.
  var scheduled = false;
  function scheduleViewports() {
    if (scheduled) return;
    scheduled = true;
    window.requestAnimationFrame(function () {
      scheduled = false;
      registry.forEach(postViewport);
    });
  }

  function onMessage(event) {
    var data = event.data;
    if (!data || typeof data !== 'object') return;
    for (var i = 0; i < registry.length; i += 1) {
      var embed = registry[i];
      // Only the portal, and only this embed's own frame, may resize it.
      if (event.source !== embed.frame.contentWindow || event.origin !== embed.origin) continue;
      if (data.type === HEIGHT && typeof data.height === 'number' && isFinite(data.height) && data.height >= 0) {
        embed.frame.style.height = Math.ceil(Math.max(embed.minHeight, data.height)) + 'px';
        scheduleViewports();
      } else if (data.type === SCROLL_INTO_VIEW) {
        // The portal moved to another page: bring the frame's top back into view when it is above the window.
        if (embed.frame.getBoundingClientRect().top < 0) embed.frame.scrollIntoView({ block: 'start' });
      }
      return;
    }
  }

  function embedAfter(script) {
    var origin = portalOrigin(script);
    if (!origin) return;
    script.setAttribute(DONE, '');
    var minHeight = Number(script.getAttribute('data-min-height'));
    var frame = document.createElement('iframe');
    frame.src = frameUrl(script, origin);
    frame.title = script.getAttribute('data-title') || 'Patient portal';
    frame.setAttribute('allow', 'geolocation');
    frame.setAttribute('loading', 'eager');
    frame.style.display = 'block';
    frame.style.width = '100%';
    frame.style.border = '0';
    frame.style.overflow = 'hidden';
    var embed = { frame: frame, origin: origin, minHeight: isFinite(minHeight) && minHeight > 0 ? minHeight : 480 };
    frame.style.height = embed.minHeight + 'px';
    frame.addEventListener('load', function () {
      postViewport(embed);
    });
    registry.push(embed);
    script.parentNode.insertBefore(frame, script.nextSibling);
  }

  if (!window.__radiologyPortalListening) {
    window.__radiologyPortalListening = true;
    window.addEventListener('message', onMessage);
    window.addEventListener('scroll', scheduleViewports, { passive: true });
    window.addEventListener('resize', scheduleViewports, { passive: true });
  }

  // This tag, and any other portal tag on the page not yet turned into a frame (several tags work
  // independently; an async tag can run after another tag's script already did).
  var scripts = [];
  if (document.currentScript) scripts.push(document.currentScript);
  var all = document.querySelectorAll('script[src]');
  for (var j = 0; j < all.length; j += 1) {
    if (all[j] !== document.currentScript && /\/embed\.js(\?|#|$)/.test(all[j].src)) scripts.push(all[j]);
  }
  scripts.forEach(function (script) {
    if (!script.hasAttribute(DONE) && script.parentNode) embedAfter(script);
  });
})();
