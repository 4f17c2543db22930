/**
 * notify_seen_events: ids of service events already taken in, so that a redelivery changes
 * nothing (Store.takeInEvent marks them in the same transaction as the DMs it queues).
 */

export interface SeenEventsStore {
  /** True the first time an event id is offered; false for a replay. */
  markSeen(eventId: string, now?: number): Promise<boolean>;
  /** Forgets ids older than `olderThanMs`; returns how many. */
  prune(olderThanMs: number, now?: number): Promise<number>;
}
