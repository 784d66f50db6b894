import { CALLBACK_NOTE_MAX, type StaffCallback, type StaffCallbackList } from '@contract/api/callbacks';
import { StaffQueueStore } from '../../components/staff-queue-store';
import type { FeatureStoreContext } from '../../stores/root-store';
import { createStaffCallbacksApi } from './staff-callbacks-api';

/**
 * /staff/callbacks (docs/rules/callbacks.md#the-staff-queue): the queue as the server orders it
 * (open oldest first, then the latest called), and "Mark called" with an optional note.
 */
export type StaffCallbacksStore = StaffQueueStore<StaffCallback, StaffCallbackList>;

export function staffCallbacksStoreOf({ client }: FeatureStoreContext): StaffCallbacksStore {
  const api = createStaffCallbacksApi(client);
  return new StaffQueueStore<StaffCallback, StaffCallbackList>(
    { list: () => api.list(), mark: (item, note) => api.markCalled(item.id, note) },
    { noteMax: CALLBACK_NOTE_MAX, nameOf: (item) => `${item.firstName} ${item.lastName}` },
  );
}
