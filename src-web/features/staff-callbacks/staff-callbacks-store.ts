import * as callbacks from '@contract/api/callbacks';
import { staffQueueStoreOf } from '../../components/staff-queue-api';
import type { StaffQueueStore } from '../../components/staff-queue-store';
import type { FeatureStoreFactory } from '../../stores/root-store';

/**
 * /staff/callbacks (docs/rules/callbacks.md#the-staff-queue): the queue as the server orders it
 * (open oldest first, then the latest called), and "Mark called" with an optional note
 * (staff, admin; src-contract/api/callbacks.ts).
 */
export type StaffCallbacksStore = StaffQueueStore<callbacks.StaffCallback, callbacks.StaffCallbackList>;

export const staffCallbacksStoreOf: FeatureStoreFactory<StaffCallbacksStore> = staffQueueStoreOf({
  listPath: callbacks.STAFF_CALLBACK_REQUESTS_PATH,
  listSchema: callbacks.StaffCallbackListSchema,
  markPath: (item) => callbacks.staffCallbackCalledPath(item.id),
  noteMax: callbacks.CALLBACK_NOTE_MAX,
  nameOf: (item) => `${item.firstName} ${item.lastName}`,
});
