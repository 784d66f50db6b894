/** What other modules may use of kiosks (docs/rules/kiosk.md#enrollment). */
export { createKiosksService, type KiosksService } from './service';
export { registerKioskRoutes } from './routes';
export { requireKiosk, kioskOf } from './guard';
