/** notify_settings: each person's choice per kind, as both engines answer "all of them". */
import type { NotifyKind } from './contract.js';

/** Every kind's setting (a kind added to NOTIFY_KINDS must be added here: the type says so). */
export const eachKind = (enabled: (kind: NotifyKind) => boolean): Record<NotifyKind, boolean> => ({
  assigned: enabled('assigned'),
  comments: enabled('comments'),
  completed: enabled('completed'),
  digest: enabled('digest'),
});
