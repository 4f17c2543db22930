/** notify_settings: each person's choice per kind, as both engines answer "all of them". */
import { NOTIFY_KINDS, type NotifyKind } from './contract.js';

/** Every kind's setting (a kind added to NOTIFY_KINDS must be added here: the type says so). */
export const eachKind = (enabled: (kind: NotifyKind) => boolean): Record<NotifyKind, boolean> => ({
  assigned: enabled('assigned'),
  comments: enabled('comments'),
  completed: enabled('completed'),
  digest: enabled('digest'),
});

/** The row kind that holds a person's quiet hours ('HH:MM-HH:MM'); not a NotifyKind. */
export const QUIET = 'quiet';

/** What forDm answers, from the person's rows of the DM's kind and of quiet hours. */
export function dmSettings(
  kind: NotifyKind | undefined,
  rows: readonly { kind: string; enabled: boolean; value: string | null }[],
): { enabled: boolean; quietHours?: string } {
  const own = kind ? rows.find((r) => r.kind === kind) : undefined;
  const quiet = rows.find((r) => r.kind === QUIET);
  const enabled = kind ? (own ? own.enabled : NOTIFY_KINDS[kind].default) : true;
  return quiet?.enabled && quiet.value ? { enabled, quietHours: quiet.value } : { enabled };
}
