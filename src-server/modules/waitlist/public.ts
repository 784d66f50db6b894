/** What the rest of the server uses of the waiting list (docs/rules/waitlist.md). */
export { createWaitlistOffers, OFFER_LINK, type WaitlistOffers } from './offers';
export { createWaitlistService, type WaitlistService } from './service';
export { registerWaitlistRoutes } from './routes';
