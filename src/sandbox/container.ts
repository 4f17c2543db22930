// Where an interactive element lives, as the page names it (a message, or a view), checked the
// way Slack's client would only let a user reach it: a message they can see, their own Home tab
// or a modal in their own stack. Shared by block_actions and block_suggestion.

import { type BlockObj, type ElementObj, findElement } from './block-kit.js';
import type { Container } from './page/types.js';
import type { SandboxMessage, SlackView } from './records.js';
import type { SandboxState } from './state.js';

export type { Container } from './page/types.js';

export type Located =
  | { ok: true; block: BlockObj; element: ElementObj; message: SandboxMessage; view?: undefined }
  | { ok: true; block: BlockObj; element: ElementObj; view: SlackView; message?: undefined }
  | { ok: false; problem: string };

/** The element `blockId`/`actionId` in `container`, if `userId` can reach it there. */
export function locate(
  state: SandboxState,
  userId: string,
  container: Container,
  blockId: string,
  actionId: string,
): Located {
  if (container.type === 'message') {
    const message = state.findMessage(container.channel, container.ts);
    if (!message || !state.canSee(userId, message)) {
      return { ok: false, problem: 'That message is gone.' };
    }
    const found = findElement(message.blocks ?? [], blockId, actionId);
    if (!found) return { ok: false, problem: 'That button or menu is no longer in the message.' };
    return { ok: true, ...found, message };
  }
  const stored = state.views.get(container.viewId);
  const isOwnHome =
    stored?.view.type === 'home' && state.homeViews.get(userId) === container.viewId;
  const isOwnModal =
    stored?.view.type === 'modal' && state.stackOf(userId).includes(container.viewId);
  if (!stored || stored.userId !== userId || !(isOwnHome || isOwnModal)) {
    return { ok: false, problem: 'That view is no longer open.' };
  }
  const found = findElement(stored.view.blocks, blockId, actionId);
  if (!found) return { ok: false, problem: 'That element is no longer in the view.' };
  return { ok: true, ...found, view: stored.view };
}

/** A key naming the container, for what the sandbox remembers per message or view. */
export function containerKey(container: Container): string {
  return container.type === 'view'
    ? `view:${container.viewId}`
    : `message:${container.channel}:${container.ts}`;
}
