/**
 * notify_settings: which notifications each person gets, per kind, and their quiet hours.
 * A kind nobody changed has its default (NOTIFY_KINDS), so adding a kind later needs no
 * migration. Quiet hours are the row of kind 'quiet' with its window as the value.
 */

/** Every kind of notification a person can turn on or off, with its default and wording. */
export const NOTIFY_KINDS = {
  assigned: { default: true, label: 'Tasks assigned to you' },
  comments: { default: true, label: 'Comments on tasks assigned to you or created by you' },
  completed: { default: true, label: 'Tasks you created completed' },
  digest: { default: true, label: 'Daily digest (weekdays at 09:00 your time)' },
} as const;

export type NotifyKind = keyof typeof NOTIFY_KINDS;

export function isNotifyKind(word: string): word is NotifyKind {
  return Object.hasOwn(NOTIFY_KINDS, word);
}

export interface NotifySettingsStore {
  enabled(teamId: string, slackUserId: string, kind: NotifyKind): Promise<boolean>;
  set(teamId: string, slackUserId: string, kind: NotifyKind, enabled: boolean): Promise<void>;
  /** Every kind with its value for this person (defaults filled in). */
  all(teamId: string, slackUserId: string): Promise<Record<NotifyKind, boolean>>;
  /** The person's quiet hours as stored ('20:00-08:00'); undefined when off (the default). */
  quietHours(teamId: string, slackUserId: string): Promise<string | undefined>;
  /**
   * What a DM's gate asks, in one read: whether the person gets DMs of `kind` (true without a
   * kind) and their quiet hours (as `quietHours`).
   */
  forDm(
    teamId: string,
    slackUserId: string,
    kind: NotifyKind | undefined,
  ): Promise<{ enabled: boolean; quietHours?: string }>;
  /** Sets (a window) or turns off (undefined) the person's quiet hours. */
  setQuietHours(teamId: string, slackUserId: string, window: string | undefined): Promise<void>;
  deleteTeam(teamId: string): Promise<number>;
}
