/** What the app may use of result sharing (docs/rules/results.md#sharing). */
export { createResultShares, type ResultSharesService } from './service';
export { registerResultShareRoutes } from './routes';
