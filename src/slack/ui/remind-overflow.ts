/**
 * "Remind me" on a task's messages (live cards and DMs): an overflow menu whose choices set a
 * reminder for the person who picks one (src/slack/remind/commands.ts handles ACTION.remindMe).
 * Option values are `<choice>:<taskId>`; a date of one's own is `/work remind <task> <when>`.
 */
import { ACTION } from './block-ids.js';

export const REMIND_CHOICES = [
  { value: 'hour', label: 'Remind me in 1 hour' },
  { value: 'morning', label: 'Remind me tomorrow morning' },
  { value: 'week', label: 'Remind me next week' },
] as const;

export type RemindChoice = (typeof REMIND_CHOICES)[number]['value'];

export function remindOverflow(taskId: string) {
  return {
    type: 'overflow' as const,
    action_id: ACTION.remindMe,
    options: REMIND_CHOICES.map((c) => ({
      text: { type: 'plain_text' as const, text: c.label },
      value: `${c.value}:${taskId}`,
    })),
  };
}
