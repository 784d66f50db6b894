/** What other modules and the server's wiring may use of the one-click unsubscribe. */
export { createUnsubscribeService, type UnsubscribeService } from './service';
export { registerUnsubscribeRoutes } from './routes';
export { SENT_EVEN_WHEN_UNSUBSCRIBED, stopsWhenUnsubscribed, UNSUBSCRIBE_LINK, UNSUBSCRIBE_LINK_TTL_MS } from './rules';
