import type { z } from 'zod';
import type { ApiClient } from '../api/client';
import { parseResponse } from '../api/parse-response';
import type { FeatureStoreFactory } from '../stores/root-store';
import { StaffQueueStore, type StaffQueueApi, type StaffQueueList } from './staff-queue-store';

/** What tells one staff queue from another: its two addresses, its list's contract, its note's cap, whom an item is about. */
export interface StaffQueueDefinition<Item, List extends StaffQueueList<Item>> {
  listPath: string;
  listSchema: z.ZodType<List>;
  /** Where to mark the item; `action` is the store's markAction ('' in a queue with one way). */
  markPath(item: Item, action: string): string;
  noteMax: number;
  /** Who the item is about (the status line after a mark). */
  nameOf(item: Item): string;
}

/**
 * A staff work queue's two calls, the same for every queue (the callback queue, the booking
 * requests): its list, and one "mark done" with an optional note. Both ride the staff session,
 * so a 401 concerns it, not a patient's.
 */
export function createStaffQueueApi<Item, List extends StaffQueueList<Item>>(
  client: ApiClient,
  queue: StaffQueueDefinition<Item, List>,
): StaffQueueApi<Item, List> {
  const { http } = client;
  return {
    list: async () =>
      parseResponse(queue.listPath, queue.listSchema, (await http.get<unknown>(queue.listPath, { staffSession: true })).data),
    mark: async (item, note, action) => {
      await http.post(queue.markPath(item, action), note === '' ? {} : { note }, { staffSession: true });
    },
  };
}

/** A staff queue page's store (RootStore.featureStore: this factory is its key, so keep it in a constant). */
export function staffQueueStoreOf<Item, List extends StaffQueueList<Item>>(
  queue: StaffQueueDefinition<Item, List>,
): FeatureStoreFactory<StaffQueueStore<Item, List>> {
  return ({ client }) => new StaffQueueStore(createStaffQueueApi(client, queue), queue);
}
