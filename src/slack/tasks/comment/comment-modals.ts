/**
 * The two comment modals, as pure functions: "Comment" on a task card (the task is known)
 * and "Add to task as comment" on a message (asks for the task id; the message's text is
 * prefilled and its link is added when posting).
 */

import type { InputBlock, ModalView, PlainTextElement } from '@slack/types';
import { z } from 'zod';
import { cut } from '../../format/text.js';
import { ACTION, VIEW } from '../../ui/block-ids.js';
import { carriedText, readCarried } from '../../ui/metadata.js';
import { taskPickerElement } from '../picker.js';

export const COMMENT_BLOCK = { text: 'comment_text', taskId: 'comment_task' } as const;
export const COMMENT_ACTION = { text: 'comment_text_input', taskId: ACTION.taskPicker } as const;

/** Leaves room for the message link and the attribution line in the service's 10 000. */
const COMMENT_MAX = 3000;

export interface CommentMeta {
  taskId?: string;
  taskName?: string;
  channelId?: string;
  responseUrl?: string;
  /** The message a comment is made from: its channel and ts, for chat.getPermalink. */
  messageChannel?: string;
  messageTs?: string;
  /** Who wrote that message (named in the comment): a Slack user id, or an app's name. */
  messageUser?: string;
  messageBot?: string;
}

const text = (t: string) => ({ type: 'plain_text' as const, text: t });

/** The comment's text input; `extra` adds a placeholder or an initial value. */
function commentInput(extra: {
  placeholder?: PlainTextElement;
  initial_value?: string;
}): InputBlock {
  return {
    type: 'input',
    block_id: COMMENT_BLOCK.text,
    label: text('Comment'),
    element: {
      type: 'plain_text_input',
      action_id: COMMENT_ACTION.text,
      multiline: true,
      max_length: COMMENT_MAX,
      ...extra,
    },
  };
}

export function taskCommentModal(meta: CommentMeta): ModalView {
  return {
    type: 'modal',
    callback_id: VIEW.taskComment,
    private_metadata: encodeCommentMeta(meta),
    title: text('Comment'),
    submit: text('Post'),
    close: text('Cancel'),
    blocks: [
      ...(meta.taskName
        ? [
            {
              type: 'context' as const,
              elements: [{ type: 'plain_text' as const, text: cut(`On: ${meta.taskName}`, 2000) }],
            },
          ]
        : []),
      commentInput({ placeholder: text('Write a comment') }),
    ],
  };
}

export function commentFromMessageModal(meta: CommentMeta, messageText: string): ModalView {
  const initial = cut(messageText.trim(), COMMENT_MAX);
  return {
    type: 'modal',
    callback_id: VIEW.commentFromMessage,
    private_metadata: encodeCommentMeta(meta),
    title: text('Add as comment'),
    submit: text('Post'),
    close: text('Cancel'),
    blocks: [
      {
        type: 'input',
        block_id: COMMENT_BLOCK.taskId,
        label: text('Task'),
        element: taskPickerElement('Type words of its name, or #12'),
      },
      {
        ...commentInput(initial ? { initial_value: initial } : {}),
        hint: text('A link to the message is added at the end.'),
      },
    ],
  };
}

export function encodeCommentMeta(meta: CommentMeta): string {
  const json = JSON.stringify({ ...meta, taskName: meta.taskName?.slice(0, 200) });
  return json.length <= 3000 ? json : JSON.stringify({ ...meta, taskName: undefined });
}

const CommentMetaSchema = z.object({
  taskId: carriedText,
  taskName: carriedText,
  channelId: carriedText,
  responseUrl: carriedText,
  messageChannel: carriedText,
  messageTs: carriedText,
  messageUser: carriedText,
  messageBot: carriedText,
});

export function readCommentMeta(raw: string | undefined): CommentMeta {
  return readCarried(raw, CommentMetaSchema) ?? {};
}

type State = Record<
  string,
  | Record<
      string,
      { value?: string | null; selected_option?: { value?: string } | null } | undefined
    >
  | undefined
>;

export function readCommentValues(state: State): { text: string; taskId: string } {
  return {
    text: state?.[COMMENT_BLOCK.text]?.[COMMENT_ACTION.text]?.value?.trim() ?? '',
    taskId: state?.[COMMENT_BLOCK.taskId]?.[COMMENT_ACTION.taskId]?.selected_option?.value ?? '',
  };
}
