/**
 * Shortcuts: "Create task from message" (the form prefilled with the message's first line,
 * its text and link, and its files), "Add to task as comment" (asks for the task id), and
 * the global "New task".
 */

import type {
  AllMiddlewareArgs,
  App,
  MessageShortcut,
  SlackShortcutMiddlewareArgs,
} from '@slack/bolt';
import { afterAck } from '../context/after-ack.js';
import type { WorklinkDeps } from '../context/deps.js';
import { orDebug } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';
import { cut, plainText } from '../format/text.js';
import { SHORTCUT } from '../ui/block-ids.js';
import { slackErrorCode } from '../ui/error-text.js';
import { commentFromMessageModal } from './comment/comment-modals.js';
import { messageFiles, type SlackFileLike } from './files.js';
import { openTaskForm } from './form/open.js';

/** A task name from a message: its first non-empty line, at most 100 characters. */
export function nameFromMessage(text: string, fallback = 'Task from a Slack message'): string {
  const line = plainText(text)
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  return cut(line ?? fallback, 100);
}

/** The description: the message's text and its link (within the form's 3000 characters). */
export function descriptionFromMessage(text: string, permalink: string | undefined): string {
  const link = permalink ? `\n\n${permalink}` : '';
  return `${cut(plainText(text).trim(), 3000 - link.length)}${link}`.trim();
}

type ShortcutArgs = SlackShortcutMiddlewareArgs & AllMiddlewareArgs;
type MessageShortcutArgs = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;

export function register(app: App, deps: WorklinkDeps): void {
  const guarded = (fn: (ctx: WorkContext, args: ShortcutArgs) => Promise<void>) =>
    afterAck<ShortcutArgs>(deps, 'shortcut', fn);
  const onMessage = (
    callbackId: string,
    fn: (ctx: WorkContext, shortcut: MessageShortcut) => Promise<void>,
  ) =>
    app.shortcut<MessageShortcut>(
      callbackId,
      afterAck<MessageShortcutArgs>(deps, 'shortcut', (ctx, args) => fn(ctx, args.shortcut)),
    );

  onMessage(SHORTCUT.createTaskFromMessage, async (ctx, shortcut) => {
    const { message } = shortcut;
    const text = message.text ?? '';
    const channel = shortcut.channel?.id;
    const files: SlackFileLike[] = Array.isArray(message.files) ? message.files : [];
    await openTaskForm(ctx, {
      mode: 'create',
      values: { name: nameFromMessage(text, files[0]?.name ?? undefined) },
      source: channel && message.ts ? { channel, ts: message.ts } : undefined,
      // While the loading view shows: the link and the message's files.
      prefill: async () => {
        const [permalink, attached] = await Promise.all([
          channel && message.ts
            ? ctx.slack.chat
                .getPermalink({ channel, message_ts: message.ts })
                .then((r) => r.permalink)
                .catch(orDebug(ctx.logger, 'chat.getPermalink', undefined))
            : undefined,
          messageFiles(ctx, files),
        ]);
        return {
          values: { description: descriptionFromMessage(text, permalink) },
          files: attached,
        };
      },
    });
  });

  onMessage(SHORTCUT.addCommentFromMessage, async (ctx, shortcut) => {
    const { message } = shortcut;
    try {
      await ctx.slack.views.open({
        trigger_id: shortcut.trigger_id,
        view: commentFromMessageModal(
          {
            channelId: ctx.channelId,
            responseUrl: ctx.responseUrl,
            messageChannel: shortcut.channel?.id,
            messageTs: message.ts,
            // The comment names the message's author, not whoever runs the shortcut.
            messageUser: message.user,
            messageBot: message.user ? undefined : message.bot_profile?.name || message.username,
          },
          plainText(message.text ?? ''),
        ),
      });
    } catch (e) {
      await ctx.reply(
        `Could not open the comment form (${slackErrorCode(e)}). Please try the shortcut again.`,
      );
    }
  });

  app.shortcut(
    SHORTCUT.newTask,
    guarded(async (ctx) => {
      await openTaskForm(ctx, { mode: 'create' });
    }),
  );
}
